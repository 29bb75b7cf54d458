package io.hikyaku.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class QueueKeyTest {

    @Test
    void fromAQueueUrl() {
        assertThat(QueueKey.fromUrlOrPath("http://127.0.0.1:9324/000000000000/orders", "/"))
                .isEqualTo(new QueueKey("000000000000", "orders"));
        assertThat(QueueKey.fromUrlOrPath("https://sqs.example.com/123456789012/jobs.fifo/", "/"))
                .isEqualTo(new QueueKey("123456789012", "jobs.fifo"));
    }

    @Test
    void fromTheRequestPathWhenTheUrlNamesNone() {
        assertThat(QueueKey.fromUrlOrPath(null, "/000000000000/orders")).isEqualTo(new QueueKey("000000000000", "orders"));
    }

    @Test
    void noneForAnythingElse() {
        assertThat(QueueKey.fromUrlOrPath(null, "/")).isNull();
        assertThat(QueueKey.fromUrlOrPath(null, "/a/b/c")).isNull();
        assertThat(QueueKey.fromUrlOrPath("not a url", null)).isNull();
        assertThat(QueueKey.fromUrlOrPath("http://host", "/")).isNull();
    }
}
