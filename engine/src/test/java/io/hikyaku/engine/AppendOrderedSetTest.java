package io.hikyaku.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class AppendOrderedSetTest {

    @Test
    void inOrderAddsAndFrontRemovalsBehaveLikeAQueue() {
        AppendOrderedSet set = new AppendOrderedSet(AppendOrderedSet.Order.BY_SEQ);
        List<Message> ms = new ArrayList<>();
        for (int i = 1; i <= 100; i++) {
            Message m = new Message(i, null, 1000);
            ms.add(m);
            set.add(m);
        }
        for (Message m : ms) {
            assertThat(set.first()).isSameAs(m);
            assertThat(set.remove(m)).isTrue();
        }
        assertThat(set.isEmpty()).isTrue();
        assertThat(set.first()).isNull();
        assertThat(set.ringEntries()).isZero();
        assertThat(set.remove(ms.get(0))).isFalse();
    }

    @Test
    void anOutOfOrderEntryIsStillFoundFirst() {
        AppendOrderedSet set = new AppendOrderedSet(AppendOrderedSet.Order.BY_SENT_AT);
        Message late = new Message(1, null, 5_000);
        Message early = new Message(2, null, 1_000); // a dead-lettered message keeps its older SentTimestamp
        set.add(late);
        set.add(early);
        assertThat(set.first()).isSameAs(early);
        set.remove(early);
        assertThat(set.first()).isSameAs(late);
    }

    @Test
    void addingTwiceKeepsOneEntry() {
        AppendOrderedSet set = new AppendOrderedSet(AppendOrderedSet.Order.BY_SEQ);
        Message m = new Message(1, null, 0);
        assertThat(set.add(m)).isTrue();
        assertThat(set.add(m)).isFalse();
        assertThat(set.size()).isEqualTo(1);
        set.remove(m);
        assertThat(set.isEmpty()).isTrue();
        assertThat(set.first()).isNull();
    }

    @Test
    void aMessageReAddedUnderANewKeyIsNotSeenTwice() {
        AppendOrderedSet set = new AppendOrderedSet(AppendOrderedSet.Order.BY_VISIBLE_AT);
        Message a = message(1, 100);
        Message b = message(2, 200);
        set.add(a);
        set.add(b);
        set.remove(a); // its ring entry (key 100) is now dead, behind nothing: dropped at once
        a.visibleAt = 300;
        set.add(a); // appended again under 300
        set.remove(b); // b's dead entry goes; a's old entry must not come back as live
        assertThat(set.first()).isSameAs(a);
        assertThat(set.size()).isEqualTo(1);
        set.remove(a);
        assertThat(set.first()).isNull();
    }

    @Test
    void deadEntriesBehindALongLivedFrontStayBounded() {
        // One message that never leaves (a poison message without a dead-letter queue) in front of a stream of
        // messages sent and deleted: the ring must not grow with the stream.
        AppendOrderedSet set = new AppendOrderedSet(AppendOrderedSet.Order.BY_SENT_AT);
        Message stuck = new Message(1, null, 0);
        set.add(stuck);
        for (long seq = 2; seq < 1_000_000; seq++) {
            Message m = new Message(seq, null, seq);
            set.add(m);
            set.remove(m);
            assertThat(set.ringEntries()).isLessThanOrEqualTo(2 * set.size() + 1024 + 1);
        }
        assertThat(set.first()).isSameAs(stuck);
        assertThat(set.size()).isEqualTo(1);
    }

    @Test
    void matchesATreeSetUnderRandomOperations() {
        for (AppendOrderedSet.Order order : AppendOrderedSet.Order.values()) {
            for (long seed = 1; seed <= 20; seed++) {
                randomRun(order, new Random(seed * 31 + order.ordinal()));
            }
        }
    }

    private static void randomRun(AppendOrderedSet.Order order, Random rnd) {
        Comparator<Message> cmp = switch (order) {
            case BY_SEQ -> Comparator.comparingLong(m -> m.seq);
            case BY_SENT_AT -> Message.BY_SENT_AT;
            case BY_VISIBLE_AT -> Message.BY_VISIBLE_AT;
        };
        AppendOrderedSet set = new AppendOrderedSet(order);
        TreeSet<Message> model = new TreeSet<>(cmp);
        List<Message> all = new ArrayList<>();
        long clock = 0;
        long nextSeq = 1;
        for (int step = 0; step < 5_000; step++) {
            int op = rnd.nextInt(10);
            if (op < 4 || all.isEmpty()) { // a new message, mostly in order
                clock += rnd.nextInt(3);
                long sentAt = rnd.nextInt(10) == 0 ? clock - rnd.nextInt(50) : clock;
                Message m = new Message(nextSeq++, null, sentAt);
                m.visibleAt = clock + (rnd.nextInt(8) == 0 ? rnd.nextInt(100) - 50 : 30);
                all.add(m);
                set.add(m);
                model.add(m);
            } else if (op < 7) { // remove the first (a receive or an expiry)
                Message f = model.pollFirst();
                if (f != null) {
                    assertThat(set.remove(f)).isTrue();
                }
            } else if (op < 9) { // remove any message (a delete), present or not
                Message m = all.get(rnd.nextInt(all.size()));
                assertThat(set.remove(m)).isEqualTo(model.remove(m));
            } else { // take out, change the visibility, put back (a visibility change or a return)
                Message m = all.get(rnd.nextInt(all.size()));
                if (model.remove(m)) {
                    set.remove(m);
                    m.visibleAt = clock + rnd.nextInt(100) - 20;
                    set.add(m);
                    model.add(m);
                }
            }
            assertThat(set.size()).isEqualTo(model.size());
            assertThat(set.first()).isSameAs(model.isEmpty() ? null : model.first());
            assertThat(set.ringEntries()).isLessThanOrEqualTo(2 * set.size() + 1024 + 1);
        }
        while (!model.isEmpty()) {
            Message f = model.pollFirst();
            assertThat(set.first()).isSameAs(f);
            set.remove(f);
        }
        assertThat(set.isEmpty()).isTrue();
    }

    private static Message message(long seq, long visibleAt) {
        Message m = new Message(seq, null, 0);
        m.visibleAt = visibleAt;
        return m;
    }
}
