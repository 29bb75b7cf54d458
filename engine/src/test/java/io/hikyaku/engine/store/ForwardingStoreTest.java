package io.hikyaku.engine.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ForwardingStoreTest {

    /**
     * Every method of Store, its defaults included, reaches the delegate as the same call with the
     * same arguments: a default left to Store's own version would call the delegate's scan instead.
     */
    @Test
    void everyStoreMethodReachesTheDelegateAsItself() throws Exception {
        List<String> calls = new ArrayList<>();
        List<Object[]> args = new ArrayList<>();
        Store recorder = (Store) Proxy.newProxyInstance(Store.class.getClassLoader(), new Class<?>[] {Store.class},
                (proxy, method, a) -> {
                    calls.add(method.getName() + List.of(method.getParameterTypes()));
                    args.add(a == null ? new Object[0] : a);
                    Class<?> r = method.getReturnType();
                    return r == boolean.class ? Boolean.TRUE : null;
                });
        ForwardingStore forwarding = new ForwardingStore() {
            @Override
            protected Store delegate() {
                return recorder;
            }
        };
        for (Method method : Store.class.getMethods()) {
            if (Modifier.isStatic(method.getModifiers())) {
                continue;
            }
            Object[] given = argumentsFor(method);
            calls.clear();
            args.clear();
            method.invoke(forwarding, given);
            assertThat(calls).as(method.toString())
                    .containsExactly(method.getName() + List.of(method.getParameterTypes()));
            assertThat(args.get(0)).as(method.toString()).containsExactly(given);
        }
    }

    private static Object[] argumentsFor(Method method) {
        Class<?>[] types = method.getParameterTypes();
        Object[] values = new Object[types.length];
        for (int i = 0; i < types.length; i++) {
            Class<?> t = types[i];
            if (t == Keyspace.class) {
                values[i] = Keyspace.MESSAGES;
            } else if (t == byte[].class) {
                values[i] = new byte[] {(byte) i};
            } else if (t == int.class) {
                values[i] = 7;
            } else if (t == Store.EntryVisitor.class) {
                values[i] = (Store.EntryVisitor) (k, v) -> true;
            } else if (t == StoreBatch.class) {
                values[i] = new StoreBatch().put(Keyspace.META, new byte[] {1}, new byte[] {2});
            } else {
                throw new AssertionError("no test value for " + t + " in " + method);
            }
        }
        return values;
    }
}
