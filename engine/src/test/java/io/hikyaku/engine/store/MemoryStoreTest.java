package io.hikyaku.engine.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class MemoryStoreTest {

    private static final byte[] KEY = {1, 2};
    private static final byte[] VALUE = {3};

    @Test
    void onlyTheMessagesKeyspaceIsReadWhileServing() {
        for (Keyspace space : Keyspace.values()) {
            assertThat(space.readWhileServing()).as(space.name()).isEqualTo(space == Keyspace.MESSAGES);
        }
    }

    @Test
    void aServingStoreKeepsBodiesAndDropsWhatOnlyALoaderReads() {
        MemoryStore store = MemoryStore.forServing();
        StoreBatch b = new StoreBatch();
        for (Keyspace space : Keyspace.values()) {
            b.put(space, KEY, VALUE);
        }
        assertThat(store.write(b)).isCompleted();
        for (Keyspace space : Keyspace.values()) {
            List<byte[]> seen = new ArrayList<>();
            store.scan(space, new byte[0], (k, v) -> seen.add(v));
            if (space.readWhileServing()) {
                assertThat(store.get(space, KEY)).as(space.name()).isEqualTo(VALUE);
                assertThat(seen).as(space.name()).containsExactly(VALUE);
            } else {
                assertThat(store.get(space, KEY)).as(space.name()).isNull();
                assertThat(seen).as(space.name()).isEmpty();
            }
        }
        StoreBatch delete = new StoreBatch();
        for (Keyspace space : Keyspace.values()) {
            delete.delete(space, KEY);
        }
        assertThat(store.write(delete)).isCompleted();
        assertThat(store.get(Keyspace.MESSAGES, KEY)).isNull();
    }

    @Test
    void theDefaultStoreKeepsEveryKeyspaceForALaterLoad() {
        MemoryStore store = new MemoryStore();
        StoreBatch b = new StoreBatch();
        for (Keyspace space : Keyspace.values()) {
            b.put(space, KEY, VALUE);
        }
        store.write(b);
        for (Keyspace space : Keyspace.values()) {
            assertThat(store.get(space, KEY)).as(space.name()).isEqualTo(VALUE);
        }
    }
}
