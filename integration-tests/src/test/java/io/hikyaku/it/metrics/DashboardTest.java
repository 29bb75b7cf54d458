package io.hikyaku.it.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.it.support.SqsTestBase;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/** Every hikyaku_ series the Grafana dashboard (docs/grafana/hikyaku.json) queries is one the server exposes. */
class DashboardTest extends SqsTestBase {

    private static final Pattern NAME = Pattern.compile("\\b(hikyaku_[a-z_]+|jvm_[a-z_]+)");

    @Test
    void everyMetricTheDashboardUsesIsExposed() throws IOException, InterruptedException {
        // traffic that makes every kind of series appear: a FIFO queue, a dead-letter move, a move task
        String dlqName = unique("d-dlq");
        createQueue(dlqName);
        String src = createQueue(unique("d-src"), java.util.Map.of(QueueAttributeName.REDRIVE_POLICY, redrivePolicy(arn(dlqName), 1)));
        sqs.sendMessage(b -> b.queueUrl(src).messageBody("x"));
        sqs.receiveMessage(b -> b.queueUrl(src).visibilityTimeout(0));
        sqs.receiveMessage(b -> b.queueUrl(src));
        sqs.startMessageMoveTask(b -> b.sourceArn(arn(dlqName)));
        String fifo = createFifoQueue(uniqueFifo("d-fifo"), java.util.Map.of());
        sqs.sendMessage(b -> b.queueUrl(fifo).messageBody("f").messageGroupId("g").messageDeduplicationId("1"));
        try {
            sqs.getQueueUrl(b -> b.queueName("d-none")); // an error answer
        } catch (software.amazon.awssdk.services.sqs.model.QueueDoesNotExistException expected) {
            // counted by hikyaku_request_errors_total
        }
        advance(Duration.ofSeconds(2));

        Path dashboard = Path.of("..", "docs", "grafana", "hikyaku.json");
        Set<String> used = new TreeSet<>();
        Matcher m = NAME.matcher(Files.readString(dashboard));
        while (m.find()) {
            used.add(m.group(1));
        }
        String text = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(endpoint + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        Set<String> exposed = PrometheusText.parse(text).samples.stream().map(PrometheusText.Sample::name)
                .collect(Collectors.toCollection(TreeSet::new));
        // the RocksDB-only series are absent in this in-memory server
        used.removeIf(n -> n.startsWith("hikyaku_wal_") || n.startsWith("hikyaku_rocksdb_") || n.equals("hikyaku_store_size_bytes"));
        // Micrometer registers the GC pause timer at the first collection after binding: not yet in a young test JVM
        used.removeIf(n -> n.startsWith("jvm_gc_pause"));
        assertThat(used).hasSizeGreaterThan(20);
        assertThat(exposed).containsAll(used);
    }
}
