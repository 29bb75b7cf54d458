package io.hikyaku.server.storage;

import io.hikyaku.engine.store.Keyspace;
import io.hikyaku.engine.store.MemoryStore;
import io.hikyaku.engine.store.Store;
import io.hikyaku.engine.store.StoreBatch;
import org.junit.jupiter.api.Test;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

class StoreHealthTest {

    /**
     * A method left to Store's default would silently bypass the real store's own version (as
     * scanHeads once did: the loader then read every body whole at start-up).
     */
    @Test
    void overridesEveryStoreMethod() throws Exception {
        for (Method m : Store.class.getMethods()) {
            if (java.lang.reflect.Modifier.isStatic(m.getModifiers())) {
                continue; // a static helper of the interface (Store.successor) is not a store method
            }
            if (m.getDeclaringClass() != Store.class && m.getDeclaringClass() != AutoCloseable.class) {
                continue;
            }
            // its own version or ForwardingStore's, never the interface's default
            Method own = StoreHealth.class.getMethod(m.getName(), m.getParameterTypes());
            assertThat(own.getDeclaringClass().isInterface()).as(m.toString()).isFalse();
        }
    }

    @Test
    void everyCallReachesTheSameMethodOfTheStore() throws Exception {
        List<String> calls = new ArrayList<>();
        MemoryStore memory = new MemoryStore();
        Store recording = (Store) Proxy.newProxyInstance(Store.class.getClassLoader(), new Class<?>[] {Store.class},
                (proxy, method, args) -> {
                    calls.add(method.getName());
                    try {
                        return method.invoke(memory, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        StoreHealth health = new StoreHealth(recording);
        health.write(new StoreBatch().put(Keyspace.MESSAGES, new byte[] {1}, new byte[] {42})).get(5, TimeUnit.SECONDS);
        assertThat(health.get(Keyspace.MESSAGES, new byte[] {1})).containsExactly(42);
        List<byte[]> seen = new ArrayList<>();
        health.scan(Keyspace.MESSAGES, new byte[0], (k, v) -> seen.add(v));
        health.scanHeads(Keyspace.MESSAGES, new byte[0], 64, (k, v) -> seen.add(v));
        assertThat(seen).containsExactly(new byte[] {42}, new byte[] {42});
        assertThat(health.isEphemeral()).isTrue();
        assertThat(health.resume()).isTrue();
        health.close();
        assertThat(calls).containsExactly("write", "get", "scan", "scanHeads", "isEphemeral", "resume", "close");
    }

    @Test
    void failedWritesAreCounted() throws Exception {
        Store full = (Store) Proxy.newProxyInstance(Store.class.getClassLoader(), new Class<?>[] {Store.class},
                (proxy, method, args) -> method.getName().equals("write")
                        ? java.util.concurrent.CompletableFuture.failedFuture(new io.hikyaku.engine.store.StoreException("no space"))
                        : method.invoke(new MemoryStore(), args));
        StoreHealth health = new StoreHealth(full);
        for (int i = 0; i < 2; i++) {
            health.write(new StoreBatch().put(Keyspace.MESSAGES, new byte[] {1}, new byte[] {42})).handle((v, e) -> e)
                    .get(5, TimeUnit.SECONDS);
        }
        assertThat(health.failures()).isEqualTo(2);
    }
}
