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
    void rejectsNonPositiveSequenceNumbers() {
        assertThatThrownBy(() -> new MessagesBySeq().put(0, new Message(0, null, 0)))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
