package io.hikyaku.it.sse;

import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.server.HikyakuServer;
import io.hikyaku.server.ServerConfig;
import io.hikyaku.server.StorageMode;
import io.hikyaku.testsupport.MutableClock;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.kms.KmsClient;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * Data key reuse, counted in /metrics on the server's clock (moved by the test): one data key per queue and key
 * per KmsDataKeyReusePeriodSeconds however many messages are sent, a new one once the period is over, and one
 * Decrypt per data key however many messages a receive opens (none for messages this server sealed lately, whose
 * plaintext it still holds in memory).
 */
class SseDataKeyReuseTest {

    private final MutableClock clock = new MutableClock(Instant.now().truncatedTo(ChronoUnit.SECONDS));

    @Test
    void oneDataKeyPerQueueAndPeriodAndOneDecryptPerDataKey() throws Exception {
        try (HikyakuServer server = HikyakuServer.start(ServerConfig.defaults().withPort(0).withStorage(StorageMode.MEMORY)
                .withClock(clock));
             SqsClient sqs = SseClients.sqs(server.endpoint(), "test", "test");
             KmsClient kms = SseClients.kms(server.endpoint(), "test", "test")) {
            String keyId = kms.createKey(b -> b.description("reuse")).keyMetadata().keyId();
            String q = sqs.createQueue(b -> b.queueName("reuse").attributesWithStrings(Map.of("KmsMasterKeyId", keyId,
                    "KmsDataKeyReusePeriodSeconds", "60"))).queueUrl();
            long generated = counter(server, "generated");
            for (int i = 0; i < 15; i++) {
                int n = i;
                sqs.sendMessage(b -> b.queueUrl(q).messageBody("m" + n));
            }
            sqs.sendMessageBatch(b -> b.queueUrl(q).entries(e -> e.id("a").messageBody("a"), e -> e.id("b").messageBody("b")));
            assertThat(counter(server, "generated")).as("17 messages, one period").isEqualTo(generated + 1);
            clock.advance(Duration.ofSeconds(59));
            sqs.sendMessage(b -> b.queueUrl(q).messageBody("late in the period"));
            assertThat(counter(server, "generated")).isEqualTo(generated + 1);
            clock.advance(Duration.ofSeconds(2));
            sqs.sendMessage(b -> b.queueUrl(q).messageBody("next period"));
            assertThat(counter(server, "generated")).as("the period is over").isEqualTo(generated + 2);

            String other = sqs.createQueue(b -> b.queueName("reuse-sse-sqs")).queueUrl();
            sqs.sendMessage(b -> b.queueUrl(other).messageBody("x"));
            sqs.sendMessage(b -> b.queueUrl(other).messageBody("y"));
            assertThat(counter(server, "generated")).as("another queue, its own data key").isEqualTo(generated + 3);

            long decrypted = counter(server, "decrypted");
            int received = 0;
            for (int i = 0; i < 10 && received < 19; i++) {
                received += sqs.receiveMessage(b -> b.queueUrl(q).maxNumberOfMessages(10)).messages().size();
            }
            assertThat(received).isEqualTo(19);
            assertThat(counter(server, "decrypted")).as("sealed here lately: opened from memory").isEqualTo(decrypted);

            clock.advance(Duration.ofSeconds(31)); // past the visibility timeout: received again, now decrypted
            received = 0;
            for (int i = 0; i < 10 && received < 19; i++) {
                received += sqs.receiveMessage(b -> b.queueUrl(q).maxNumberOfMessages(10)).messages().size();
            }
            assertThat(received).isEqualTo(19);
            assertThat(counter(server, "decrypted")).as("19 messages under 2 data keys").isEqualTo(decrypted + 2);
        }
    }

    private static long counter(HikyakuServer server, String which) throws Exception {
        String text = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(server.endpoint() + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        Matcher m = Pattern.compile("(?m)^hikyaku_sse_data_keys_" + which + "_total(?:\\{[^}]*\\})? ([0-9.eE+]+)$").matcher(text);
        assertThat(m.find()).as("hikyaku_sse_data_keys_" + which + "_total in /metrics").isTrue();
        return (long) Double.parseDouble(m.group(1));
    }
}
