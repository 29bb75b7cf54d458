package io.hikyaku.sns;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class HttpRetryPolicyTest {

    @Test
    void snsDefaultIsThreeRetriesTwentySecondsApart() {
        HttpRetryPolicy p = HttpRetryPolicy.of(null, null);
        assertThat(p.delayBeforeRetry(1, 0)).isEqualTo(20);
        assertThat(p.delayBeforeRetry(2, 20)).isEqualTo(20);
        assertThat(p.delayBeforeRetry(3, 40)).isEqualTo(20);
        assertThat(p.delayBeforeRetry(4, 60)).isEqualTo(-1);
        assertThat(p.contentType()).isEqualTo("text/plain; charset=UTF-8");
    }

    @Test
    void phasesOfACustomPolicyAndTheHourCap() {
        HttpRetryPolicy p = HttpRetryPolicy.of(null, "{\"healthyRetryPolicy\":{\"numRetries\":8,\"numNoDelayRetries\":1,"
                + "\"numMinDelayRetries\":1,\"numMaxDelayRetries\":2,\"minDelayTarget\":2,\"maxDelayTarget\":10,"
                + "\"backoffFunction\":\"linear\"},\"requestPolicy\":{\"headerContentType\":\"application/json\"}}");
        assertThat(p.delayBeforeRetry(1, 0)).isZero();
        assertThat(p.delayBeforeRetry(2, 0)).isEqualTo(2);
        assertThat(p.delayBeforeRetry(3, 2)).isEqualTo(2);   // backoff phase: 4 steps from 2 to 10
        assertThat(p.delayBeforeRetry(6, 20)).isEqualTo(10);
        assertThat(p.delayBeforeRetry(7, 30)).isEqualTo(10); // post-backoff
        assertThat(p.delayBeforeRetry(9, 50)).isEqualTo(-1);
        assertThat(p.delayBeforeRetry(7, 3_595)).isEqualTo(-1);
        assertThat(p.contentType()).isEqualTo("application/json");
    }

    @Test
    void aTopicMayForbidSubscriptionOverrides() {
        String topic = "{\"http\":{\"defaultHealthyRetryPolicy\":{\"numRetries\":1,\"minDelayTarget\":5,\"maxDelayTarget\":5},"
                + "\"disableSubscriptionOverrides\":true}}";
        HttpRetryPolicy p = HttpRetryPolicy.of(topic, "{\"healthyRetryPolicy\":{\"numRetries\":9}}");
        assertThat(p.numRetries()).isEqualTo(1);
        assertThat(p.delayBeforeRetry(1, 0)).isEqualTo(5);
        assertThat(HttpRetryPolicy.of(topic.replace("true", "false"), "{\"healthyRetryPolicy\":{\"numRetries\":9}}")
                .numRetries()).isEqualTo(9);
    }
}
