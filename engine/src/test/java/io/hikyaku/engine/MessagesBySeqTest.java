package io.hikyaku.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The primitive seq map against a HashMap model: random puts, removes and lookups, growth and shrink. */
class MessagesBySeqTest {

    @Test
    void behavesLikeAHashMapThroughGrowthAndShrink() {
        Random random = new Random(7);
        MessagesBySeq map = new MessagesBySeq();
        Map<Long, Message> model = new HashMap<>();
        for (int step = 0; step < 200_000; step++) {
            // Dense runs (as sequence numbers are) with sparse jumps, so probe runs collide and wrap.
            long seq = 1 + (step < 100_000 ? random.nextInt(5_000) : random.nextInt(300));
            switch (random.nextInt(3)) {
                case 0, 1 -> {
                    if (step < 100_000 || random.nextBoolean()) {
                        Message m = new Message(seq, null, step);
                        map.put(seq, m);
                        model.put(seq, m);
                    } else {
                        map.remove(seq);
                        model.remove(seq);
                    }
                }
                default -> {
                    map.remove(seq);
                    model.remove(seq);
                }
            }
            assertThat(map.get(seq)).isSameAs(model.get(seq));
            if (step % 10_000 == 0) {
                assertThat(map.size()).isEqualTo(model.size());
                for (long s = 1; s <= 5_001; s++) {
                    assertThat(map.get(s)).isSameAs(model.get(s));
                }
                assertThat(map.values()).containsExactlyInAnyOrderElementsOf(model.values());
            }
        }
        model.keySet().stream().toList().forEach(s -> {
            map.remove(s);
            model.remove(s);
        });
        assertThat(map.size()).isZero();
        assertThat(map.values()).isEmpty();
        assertThat(map.get(1)).isNull();
    }

    @Test
    void aStragglerMovesAsideAndTheWindowStaysSmall() {
        MessagesBySeq map = new MessagesBySeq();
        Message stuck = new Message(1, null, 0);
        map.put(1, stuck);
        for (long seq = 2; seq < 2_000_000; seq++) { // a stream sent and deleted behind one message that stays
            map.put(seq, new Message(seq, null, 0));
            if (seq - 100 > 1) {
                map.remove(seq - 100);
            }
            assertThat(map.windowLength()).isLessThanOrEqualTo(1024);
        }
        assertThat(map.get(1)).isSameAs(stuck);
        assertThat(map.size()).isEqualTo(1 + 100);
        assertThat(map.get(2_000_000 - 50).seq).isEqualTo(2_000_000 - 50);
        assertThat(map.get(2_000_000 - 150)).isNull();
    }

    @Test
    void aBacklogGrowsTheWindowAndItsDrainShrinksIt() {
        MessagesBySeq map = new MessagesBySeq();
        int n = 1 << 20;
        for (long seq = 1; seq <= n; seq++) {
            map.put(seq, new Message(seq, null, 0));
        }
        assertThat(map.size()).isEqualTo(n);
        assertThat(map.windowLength()).isLessThanOrEqualTo(2 * n);
        for (long seq = 1; seq <= n - 10; seq++) {
            assertThat(map.get(seq).seq).isEqualTo(seq);
            map.remove(seq);
        }
        assertThat(map.size()).isEqualTo(10);
        assertThat(map.windowLength()).isLessThanOrEqualTo(64);
        assertThat(map.values()).extracting(m -> m.seq).containsExactlyInAnyOrder(
                java.util.stream.LongStream.rangeClosed(n - 9, n).boxed().toArray(Long[]::new));
    }

    @Test
    void aJumpFarAheadMovesTheDenseWindowAside() {
        MessagesBySeq map = new MessagesBySeq();
        for (long seq = 1; seq <= 1000; seq++) {
            map.put(seq, new Message(seq, null, 0));
        }
        map.put(5_000_000_000L, new Message(5_000_000_000L, null, 0));
        assertThat(map.windowLength()).isLessThanOrEqualTo(2048);
        assertThat(map.size()).isEqualTo(1001);
        assertThat(map.get(500).seq).isEqualTo(500);
        assertThat(map.get(5_000_000_000L).seq).isEqualTo(5_000_000_000L);
        map.put(3, new Message(3, null, 1)); // an older seq again: replaced where it lives
        assertThat(map.size()).isEqualTo(1001);
        assertThat(map.get(3).sentAt).isEqualTo(1);
    }

    @Test
    void rejectsNonPositiveSequenceNumbers() {
        assertThatThrownBy(() -> new MessagesBySeq().put(0, new Message(0, null, 0)))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
