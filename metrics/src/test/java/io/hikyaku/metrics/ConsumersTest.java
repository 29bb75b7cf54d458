package io.hikyaku.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ConsumersTest {

    private final QueueKey q = new QueueKey("000000000000", "q");

    @Test
    void distinctReceiversWithinTheLastMinute() {
        Consumers c = new Consumers();
        c.seen(q, Consumers.receiverOf("AKID1", "10.0.0.1"), 1_000);
        c.seen(q, Consumers.receiverOf("AKID1", "10.0.0.1"), 2_000);
        c.seen(q, Consumers.receiverOf("AKID1", "10.0.0.2"), 3_000);
        c.seen(q, Consumers.receiverOf("AKID2", "10.0.0.1"), 4_000);
        assertThat(c.active(q, 5_000)).isEqualTo(3);
        // the first receiver was last seen at 2,000: gone once 60 s have passed since
        assertThat(c.active(q, 62_000)).isEqualTo(2);
        assertThat(c.active(q, 64_000)).isZero();
        assertThat(c.active(new QueueKey("000000000000", "other"), 5_000)).isZero();
    }
}
