package io.hikyaku.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.engine.store.Keyspace;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

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
        assertThat(w.put(a2)).isEqualTo(a);
        assertThat(w.first()).as("the replaced a is no longer live").isEqualTo(b);
        w.remove(b);
        assertThat(w.first()).isEqualTo(a2);
        assertThat(w.get("a")).isEqualTo(a2);
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
        assertThat(w.get("a")).isEqualTo(a2);
        assertThat(w.first()).isEqualTo(a2);
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

    @Test
    void entriesComeBackWithTheirFieldsWhateverTheirForm() {
        DedupWindow w = new DedupWindow();
        String uuid = "0f8fad5b-d9cb-469f-a165-70867728950e";
        DedupEntry compact = new DedupEntry("g\0dedup-1", uuid, "10000000000000000042", 100);
        DedupEntry texts = new DedupEntry("plain", "not-a-uuid", "seq-text", 200);
        DedupEntry noSeq = new DedupEntry("no-seq", uuid, null, 300);
        DedupEntry wide = new DedupEntry("\u65e5\u672c-\uD83D\uDE00", uuid, null, 400); // not Latin-1
        for (DedupEntry e : List.of(compact, texts, noSeq, wide)) {
            w.put(e);
        }
        assertThat(w.get("g\0dedup-1").messageId()).isEqualTo(uuid);
        assertThat(w.get("g\0dedup-1").sequenceNumber()).isEqualTo("10000000000000000042");
        assertThat(w.get("plain").messageId()).isEqualTo("not-a-uuid");
        assertThat(w.get("plain").sequenceNumber()).isEqualTo("seq-text");
        assertThat(w.get("no-seq").sequenceNumber()).isNull();
        assertThat(w.get(wide.key())).isEqualTo(wide);
        assertThat(w.get("\u00e9")).as("a Latin-1 key of another entry's length").isNull();
        assertThat(w.values()).containsExactly(compact, texts, noSeq, wide);
        assertThat(w.firstExpiresAt()).isEqualTo(100);
    }

    @Test
    void behavesAsAMapInSendOrderAcrossManyPagesGrowthAndShrinking() {
        // A reference model: a map by key, and the live entries in put order.
        Random random = new Random(42);
        DedupWindow w = new DedupWindow();
        Map<String, DedupEntry> model = new HashMap<>();
        LinkedHashMap<DedupEntry, Boolean> order = new LinkedHashMap<>();
        long now = 0;
        for (int step = 0; step < 200_000; step++) {
            int op = random.nextInt(10);
            String key = "k" + random.nextInt(step < 100_000 ? 20_000 : 300);
            if (op < 6) {
                DedupEntry e = new DedupEntry(key, new UUID(random.nextLong(), random.nextLong()).toString(), SendRules.sequenceNumber(step), ++now);
                DedupEntry old = model.put(key, e);
                assertThat(w.put(e)).isEqualTo(old);
                if (old != null) {
                    order.remove(old);
                }
                order.put(e, true);
            } else if (op < 8) {
                DedupEntry first = w.first();
                DedupEntry expected = order.isEmpty() ? null : order.keySet().iterator().next();
                assertThat(first).isEqualTo(expected);
                assertThat(w.firstExpiresAt()).isEqualTo(expected == null ? Long.MAX_VALUE : expected.expiresAt());
                if (first != null) {
                    w.remove(first);
                    model.remove(first.key());
                    order.remove(first);
                }
            } else if (op < 9) {
                DedupEntry e = model.get(key);
                if (e != null) {
                    w.remove(new DedupEntry(key, e.messageId(), e.sequenceNumber(), e.expiresAt() + 1));
                    assertThat(w.get(key)).as("a stale copy removes nothing").isEqualTo(e);
                    w.remove(e);
                    model.remove(key);
                    order.remove(e);
                }
            } else {
                assertThat(w.get(key)).isEqualTo(model.get(key));
            }
            assertThat(w.size()).isEqualTo(model.size());
        }
        assertThat(w.values()).containsExactlyElementsOf(order.keySet());
        for (DedupEntry e : w.values()) {
            w.remove(e);
        }
        assertThat(w.size()).isZero();
        assertThat(w.first()).isNull();
        DedupEntry again = entry("again", 1);
        w.put(again);
        assertThat(w.values()).containsExactly(again);
    }

    @Test
    void aSmallWindowHoldsASmallPageAndABusyOneWholePages() {
        // Thousands of quiet FIFO queues must not each hold a full page.
        DedupWindow w = new DedupWindow();
        w.put(entry("only", 1));
        assertThat(w.allocatedSlots()).isEqualTo(8);
        for (int i = 0; i < DedupWindow.PAGE_SIZE + 1; i++) {
            w.put(entry("k" + i, 2 + i));
        }
        assertThat(w.allocatedSlots()).isEqualTo(2 * DedupWindow.PAGE_SIZE);
    }
}
