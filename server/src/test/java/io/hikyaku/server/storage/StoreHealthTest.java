package io.hikyaku.server.storage;

import io.hikyaku.engine.store.Keyspace;
import io.hikyaku.engine.store.MemoryStore;
import io.hikyaku.engine.store.Store;
import io.hikyaku.engine.store.StoreBatch;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Method;
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
    void forwardsEveryStoreMethodItself() throws Exception {
        for (Method m : Store.class.getMethods()) {
            if (m.getDeclaringClass() != Store.class && m.getDeclaringClass() != AutoCloseable.class) {
                continue;
            }
            Method own = StoreHealth.class.getMethod(m.getName(), m.getParameterTypes());
            assertThat(own.getDeclaringClass()).as(m.toString()).isEqualTo(StoreHealth.class);
        }
    }

    @Test
    void scanHeadsReachesTheStoresOwnVersion() throws Exception {
        List<String> calls = new ArrayList<>();
        MemoryStore memory = new MemoryStore();
        Store real = new Store() {
            @Override
            public byte[] get(Keyspace space, byte[] key) {
                return memory.get(space, key);
            }

            @Override
            public void scan(Keyspace space, byte[] prefix, EntryVisitor visitor) {
                memory.scan(space, prefix, visitor);
            }

            @Override
            public void scanHeads(Keyspace space, byte[] prefix, int headBytes, EntryVisitor visitor) {
                calls.add("scanHeads " + headBytes);
                memory.scanHeads(space, prefix, headBytes, visitor);
            }

            @Override
            public java.util.concurrent.CompletableFuture<Void> write(StoreBatch batch) {
                return memory.write(batch);
            }

            @Override
            public boolean isEphemeral() {
                return true;
            }

            @Override
            public void close() {
                memory.close();
            }
        };
        StoreHealth health = new StoreHealth(real);
        health.write(new StoreBatch().put(Keyspace.MESSAGES, new byte[] {1}, new byte[] {42})).get(5, TimeUnit.SECONDS);
        List<byte[]> seen = new ArrayList<>();
        health.scanHeads(Keyspace.MESSAGES, new byte[0], 64, (k, v) -> seen.add(v));
        assertThat(calls).containsExactly("scanHeads 64");
        assertThat(seen).containsExactly(new byte[] {42});
        health.close();
    }
}
