package io.hikyaku.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** Bulk-filled trees behave exactly like trees filled one insert at a time, also when modified afterwards. */
class SortedRunTest {

    private static List<Message> messages(int n) {
        List<Message> out = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            out.add(new Message(i, null, 1_000 + i / 3)); // equal sentAt for neighbours: seq breaks the tie
        }
        return out;
    }

    @Test
    void aBulkFilledSetEqualsAnInsertedOneAndStaysUsable() {
        for (int n : new int[] {0, 1, 2, 7, 1000}) {
            List<Message> ms = messages(n);
            TreeSet<Message> bulk = new TreeSet<>(Message.BY_SENT_AT);
            SortedRun.fill(bulk, ms);
            TreeSet<Message> oneByOne = new TreeSet<>(Message.BY_SENT_AT);
            oneByOne.addAll(new ArrayList<>(ms));
            assertThat(bulk).containsExactlyElementsOf(oneByOne);
            if (n > 2) {
                assertThat(bulk.first()).isSameAs(ms.get(0));
                assertThat(bulk.remove(ms.get(1))).isTrue();
                bulk.add(new Message(n + 1, null, 0));
                assertThat(bulk.first().seq).isEqualTo(n + 1);
                assertThat(bulk).hasSize(n);
            }
        }
    }

    @Test
    void aBulkFilledSeqMapEqualsAnInsertedOne() {
        List<Message> ms = messages(500);
        TreeMap<Long, Message> bulk = new TreeMap<>();
        SortedRun.fillBySeq(bulk, ms);
        assertThat(bulk).hasSize(500);
        assertThat(bulk.firstKey()).isEqualTo(1L);
        assertThat(bulk.get(250L)).isSameAs(ms.get(249));
        bulk.remove(1L);
        bulk.put(0L, ms.get(0));
        assertThat(bulk.firstEntry().getValue()).isSameAs(ms.get(0));
        assertThat(new ArrayList<>(bulk.keySet())).isSorted();
    }

    @Test
    void onlyEmptyTreesAreFilledAndOrderIsChecked() {
        TreeSet<Message> set = new TreeSet<>(Message.BY_SENT_AT);
        set.add(new Message(9, null, 9));
        assertThatThrownBy(() -> SortedRun.fill(set, messages(2))).isInstanceOf(IllegalStateException.class);
        List<Message> unsorted = new ArrayList<>(messages(3));
        java.util.Collections.reverse(unsorted);
        assertThat(SortedRun.strictlyAscending(unsorted, Message.BY_SENT_AT)).isFalse();
        assertThat(SortedRun.strictlyAscending(messages(3), Message.BY_SENT_AT)).isTrue();
    }
}
