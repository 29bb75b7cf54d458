package io.hikyaku.pushtests;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import io.hikyaku.push.FunctionConfig;
import io.hikyaku.pushtests.support.JavaEndpoint;
import io.hikyaku.pushtests.support.PushTestBase;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Push delivery's per-mapping metrics as {@code GET /metrics} shows them, after real traffic through a
 * mapping to a local HTTP endpoint: a batch with a filtered message and a reported item failure, then a
 * call that is held open (concurrency) and fails (errors). Ages run on the server's fake clock, so they
 * are exact.
 */
class PushMetricsTest extends PushTestBase {

    private static final Duration WAIT = Duration.ofSeconds(20);
    private final HttpClient http = HttpClient.newHttpClient();
    private JavaEndpoint endpoint;

    @Override
    protected List<FunctionConfig> functions() throws Exception {
        endpoint = new JavaEndpoint(null);
        closeables.add(endpoint);
        return List.of(new FunctionConfig("metered-fn", endpoint.url(), 5, Map.of(), null));
    }

    @Test
    void perMappingMetricsFollowTheTrafficAndDisappearWithTheMapping() throws Exception {
        String name = uniqueName("metered");
        String url = createQueue(name, Map.of());
        for (String body : List.of("a", "b", "bad", "drop")) {
            sqs.sendMessage(b -> b.queueUrl(url).messageBody(body));
        }
        advance(Duration.ofSeconds(7)); // the messages are 7 s old when the mapping picks them up
        endpoint.handler(e -> new SQSBatchResponse(e.getRecords().stream().filter(m -> m.getBody().equals("bad"))
                .map(m -> new SQSBatchResponse.BatchItemFailure(m.getMessageId())).toList()));
        String uuid = createMapping("{\"FunctionName\":\"metered-fn\",\"EventSourceArn\":\"" + arn(name) + "\","
                + "\"FunctionResponseTypes\":[\"ReportBatchItemFailures\"],"
                + "\"FilterCriteria\":{\"Filters\":[{\"Pattern\":\"{\\\"body\\\":[{\\\"anything-but\\\":[\\\"drop\\\"]}]}\"}]}}");
        String labels = "{account=\"" + ACCOUNT + "\",function=\"metered-fn\",queue=\"" + name + "\",uuid=\"" + uuid + "\"}";

        await("the first batch deleted", WAIT, () -> value("hikyaku_push_messages_deleted_total" + labels) == 2);
        String text = scrape();
        assertThat(value(text, "hikyaku_push_invocations_total" + labels)).isEqualTo(1);
        assertThat(value(text, "hikyaku_push_messages_delivered_total" + labels)).isEqualTo(3);
        assertThat(value(text, "hikyaku_push_messages_filtered_total" + labels)).isEqualTo(1);
        assertThat(value(text, "hikyaku_push_item_failures_total" + labels)).isEqualTo(1);
        assertThat(value(text, "hikyaku_push_errors_total" + labels)).isZero();
        assertThat(value(text, "hikyaku_push_last_batch_size" + labels)).isEqualTo(3);
        assertThat(value(text, "hikyaku_push_max_batch_size" + labels)).isEqualTo(3);
        assertThat(value(text, "hikyaku_push_oldest_message_age_seconds" + labels)).isEqualTo(7);
        assertThat(value(text, "hikyaku_push_pollers" + labels)).isEqualTo(1);
        assertThat(value(text, "hikyaku_push_concurrency" + labels)).isZero();
        assertThat(text).contains("# TYPE hikyaku_push_invocations_total counter", "# TYPE hikyaku_push_concurrency gauge");

        // the reported failure comes back after the visibility timeout; this call is held open, then fails
        CountDownLatch release = new CountDownLatch(1);
        endpoint.handler(e -> {
            release.await(WAIT.toSeconds(), TimeUnit.SECONDS);
            throw new IllegalStateException("function error");
        });
        advance(Duration.ofSeconds(31));
        try {
            await("the retry in flight", WAIT, () -> value("hikyaku_push_concurrency" + labels) == 1);
            text = scrape();
            assertThat(value(text, "hikyaku_push_invocations_total" + labels)).isEqualTo(2);
            assertThat(value(text, "hikyaku_push_last_batch_size" + labels)).isEqualTo(1);
            assertThat(value(text, "hikyaku_push_max_batch_size" + labels)).isEqualTo(3);
            assertThat(value(text, "hikyaku_push_oldest_message_age_seconds" + labels)).isEqualTo(38);
        } finally {
            release.countDown();
        }
        await("the failed call counted", WAIT, () -> value("hikyaku_push_errors_total" + labels) == 1);
        text = scrape();
        assertThat(value(text, "hikyaku_push_concurrency" + labels)).isZero();
        assertThat(value(text, "hikyaku_push_messages_deleted_total" + labels)).isEqualTo(2);
        assertThat(value(text, "hikyaku_push_messages_delivered_total" + labels)).isEqualTo(4);

        deleteMapping(uuid);
        assertThat(scrape()).doesNotContain("uuid=\"" + uuid + "\"");
    }

    private String scrape() {
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(endpoint() + "/metrics")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).isEqualTo(200);
            return r.body();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private String endpoint() {
        return super.endpoint;
    }

    /** The value of one series (name with its labels), from a fresh scrape; -1 when absent. */
    private double value(String series) {
        return value(scrape(), series);
    }

    private static double value(String text, String series) {
        for (String line : text.split("\n")) {
            if (line.startsWith(series + " ")) {
                return Double.parseDouble(line.substring(series.length() + 1).trim());
            }
        }
        return -1;
    }
}
