package io.hikyaku.bench.scenario;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class PacingTest {
    @Test
    void pacedProducersSpreadEvenlyOverOneInterval() {
        long interval = 40_000_000L; // 20 producers at 25/s each: 500 msg/s
        List<Long> offsets = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            offsets.add(QueueScenarios.startOffsetNanos(i, 20, interval));
        }
        assertThat(offsets.get(0)).isZero();
        for (int i = 1; i < 20; i++) {
            assertThat(offsets.get(i) - offsets.get(i - 1)).isEqualTo(2_000_000L); // one send every 2 ms
        }
        assertThat(offsets.get(19)).isLessThan(interval);
    }

    @Test
    void unpacedProducersStartAtOnce() {
        assertThat(QueueScenarios.startOffsetNanos(3, 8, 0)).isZero();
        assertThat(QueueScenarios.startOffsetNanos(0, 0, 1_000)).isZero();
    }
}
