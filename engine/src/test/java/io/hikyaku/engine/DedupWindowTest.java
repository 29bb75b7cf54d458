package io.hikyaku.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.engine.store.Keyspace;
import org.junit.jupiter.api.Test;

class DedupWindowTest {

    private static DedupEntry entry(String key, long expiresAt) {
        return new DedupEntry(key, "id-" + key, null, expiresAt);
    }

    @Test
    void theWindowFitsTheLifetimeTheDedupKeyspacePromisesItsStore() {
        // Stores may drop DEDUP entries older than the promised lifetime (RocksDB: whole files by age).
        assertThat(QueueState.DEDUP_WINDOW_MS).isEqualTo(5 * 60_000L)
                .isLessThanOrEqualTo(Keyspace.DEDUP.maxEntryLifetimeMillis());
        assertThat(Keyspace.MESSAGES.maxEntryLifetimeMillis()).as("kept until deleted").isZero();
    }

    @Test
    void entriesLeaveInSendOrderAndReplacedOnesAreSkipped() {
        DedupWindow w = new DedupWindow();
        DedupEntry a = entry("a", 10);
        DedupEntry b = entry("b", 20);
        w.put(a);
        w.put(b);
        DedupEntry a2 = entry("a", 30);
        assertThat(w.put(a2)).isSameAs(a);
        assertThat(w.first()).as("the replaced a is no longer live").isSameAs(b);
        w.remove(b);
        assertThat(w.first()).isSameAs(a2);
        assertThat(w.get("a")).isSameAs(a2);
        assertThat(w.size()).isEqualTo(1);
    }

    @Test
    void removingAStaleEntryKeepsTheLiveOne() {
        DedupWindow w = new DedupWindow();
        DedupEntry a = entry("a", 10);
        w.put(a);
        DedupEntry a2 = entry("a", 30);
        w.put(a2);
        w.remove(a);
        assertThat(w.get("a")).isSameAs(a2);
        assertThat(w.first()).isSameAs(a2);
    }

    @Test
    void emptyAfterTheLastRemove() {
        DedupWindow w = new DedupWindow();
        DedupEntry a = entry("a", 10);
        w.put(a);
        w.remove(a);
        assertThat(w.first()).isNull();
        assertThat(w.values()).isEmpty();
    }

    @Test
    void loadedEntriesAreSortedByExpiry() {
        DedupWindow w = new DedupWindow();
        w.load(entry("z", 5));
        w.load(entry("a", 50));
        w.load(entry("m", 20));
        w.endLoad();
        assertThat(w.first().key()).isEqualTo("z");
        w.remove(w.first());
        assertThat(w.first().key()).isEqualTo("m");
        w.remove(w.first());
        assertThat(w.first().key()).isEqualTo("a");
    }
}
