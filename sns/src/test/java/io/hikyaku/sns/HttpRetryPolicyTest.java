package io.hikyaku.sns;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
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

    @Test
    void theAwsManagedScheduleOfQueueEndpointsIsUncapped() {
        HttpRetryPolicy p = HttpRetryPolicy.AWS_MANAGED;
        long waited = 0;
        List<Long> first = new ArrayList<>();
        for (int k = 1; k <= 16; k++) {
            long d = p.delayBeforeRetry(k, waited);
            first.add(d);
            waited += d;
        }
        assertThat(first).containsExactly(0L, 0L, 0L, 1L, 1L, 1L, 1L, 2L, 3L, 4L, 5L, 7L, 10L, 14L, 20L, 20L);
        assertThat(p.delayBeforeRetry(100_015, 2_000_000)).as("23 days in").isEqualTo(20);
        assertThat(p.delayBeforeRetry(100_016, 2_000_020)).isEqualTo(-1);
    }
}
