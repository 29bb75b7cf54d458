package io.hikyaku.sns;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The HTTP outbox on disk: what was accepted and not finished comes back after a restart, byte for byte. */
class OutboxLogTest {

    @TempDir
    Path dir;

    private static HttpDelivery delivery(String id) {
        return new HttpDelivery("arn:aws:sns:us-east-1:000000000000:t:s", "arn:aws:sns:us-east-1:000000000000:t",
                "http://127.0.0.1:9/h", "Notification", id, Map.of("x-amz-sns-message-id", id),
                ("{\"Message\":\"" + id + " \u00e9\"}").getBytes(StandardCharsets.UTF_8),
                HttpRetryPolicy.of(null, "{\"healthyRetryPolicy\":{\"numRetries\":5,\"minDelayTarget\":1,\"maxDelayTarget\":9}}"));
    }

    @Test
    void unfinishedDeliveriesSurviveAReopenAndTheFileIsCompacted() throws Exception {
        long a;
        long c;
        try (OutboxLog log = OutboxLog.open(dir)) {
            a = log.add(delivery("a"));
            long b = log.add(delivery("b"));
            c = log.add(delivery("c"));
            log.finish(b);
        }
        try (OutboxLog log = OutboxLog.open(dir)) {
            Map<Long, HttpDelivery> left = log.recovered();
            assertThat(left.keySet()).containsExactly(a, c);
            HttpDelivery back = left.get(a);
            HttpDelivery original = delivery("a");
            assertThat(back.body()).isEqualTo(original.body());
            assertThat(back.headers()).isEqualTo(original.headers());
            assertThat(back.policy()).isEqualTo(original.policy());
            assertThat(back.endpoint()).isEqualTo(original.endpoint());
            assertThat(Files.readAllLines(dir.resolve(OutboxLog.FILE))).hasSize(2); // rewritten with the pending only
            assertThat(log.add(delivery("d"))).isGreaterThan(c); // ids keep increasing
        }
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve(OutboxLog.FILE))))
                .isEqualTo("rw-------");
    }

    @Test
    void aTornLastLineIsIgnoredDamageElsewhereFailsTheStart() throws Exception {
        try (OutboxLog log = OutboxLog.open(dir)) {
            log.add(delivery("a"));
        }
        Files.writeString(dir.resolve(OutboxLog.FILE), "{\"id\":7,\"deliv", StandardOpenOption.APPEND);
        try (OutboxLog log = OutboxLog.open(dir)) {
            assertThat(log.pendingIds()).containsExactly(0L);
        }
        Files.writeString(dir.resolve(OutboxLog.FILE), "garbage\n{\"id\":0}\n");
        assertThatThrownBy(() -> OutboxLog.open(dir)).hasMessageContaining("line 1 is damaged");
    }
}
