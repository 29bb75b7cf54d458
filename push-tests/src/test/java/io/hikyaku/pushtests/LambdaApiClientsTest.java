package io.hikyaku.pushtests;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.hikyaku.push.FunctionConfig;
import io.hikyaku.pushtests.support.PushTestBase;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/** The event source mapping API driven by real Lambda clients: boto3's {@code lambda} client and the AWS CLI. */
class LambdaApiClientsTest extends PushTestBase {

    @Override
    protected List<FunctionConfig> functions() {
        // nothing listens there: these tests create mappings but send no messages
        URI nowhere = URI.create("http://127.0.0.1:9/invoke");
        return List.of(new FunctionConfig("fn-a", nowhere, 5, Map.of(), null),
                new FunctionConfig("fn-b", nowhere, 5, Map.of(), null));
    }

    /** The command's stdout and stderr, and its exit code. */
    private record Run(int exit, String out, String err) {}

    private Run run(List<String> command) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().put("AWS_ACCESS_KEY_ID", "test");
        pb.environment().put("AWS_SECRET_ACCESS_KEY", "test");
        pb.environment().put("AWS_DEFAULT_REGION", REGION);
        pb.environment().put("AWS_PAGER", "");
        Process p = pb.start();
        byte[] out = p.getInputStream().readAllBytes();
        byte[] err = p.getErrorStream().readAllBytes();
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        return new Run(p.exitValue(), new String(out, StandardCharsets.UTF_8), new String(err, StandardCharsets.UTF_8));
    }

    private Run aws(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("aws", "--endpoint-url", endpoint, "--output", "json", "lambda"));
        cmd.addAll(List.of(args));
        return run(cmd);
    }

    @Test
    void boto3LambdaClient() throws Exception {
        String q1 = uniqueName("boto-a");
        String q2 = uniqueName("boto-b");
        String fifo = uniqueName("boto-f") + ".fifo";
        String shortVisibility = uniqueName("boto-short");
        createQueue(q1, Map.of());
        createQueue(q2, Map.of());
        createQueue(fifo, Map.of(QueueAttributeName.FIFO_QUEUE, "true"));
        createQueue(shortVisibility, Map.of(QueueAttributeName.VISIBILITY_TIMEOUT, "2"));
        Path script = Path.of(getClass().getResource("/lambda_api_boto3.py").toURI());
        Run r = run(List.of("python3", script.toString(), endpoint, arn(q1), arn(q2), arn(fifo), arn(shortVisibility)));
        assertThat(r.exit()).as(r.err()).isZero();
        JsonNode checks = JSON.readTree(r.out()).path("checks");
        List<String> names = new ArrayList<>();
        checks.forEach(n -> names.add(n.asText()));
        assertThat(names).hasSize(24).contains("create answers 202 Creating", "visibility shorter than the function timeout",
                "a second mapping of the same function and queue conflicts", "paging covers all", "gone after delete");
    }

    @Test
    void awsCli() throws Exception {
        String q = uniqueName("cli");
        createQueue(q, Map.of(QueueAttributeName.VISIBILITY_TIMEOUT, "30"));
        Run created = aws("create-event-source-mapping", "--function-name", "fn-a", "--event-source-arn", arn(q),
                "--batch-size", "3", "--function-response-types", "ReportBatchItemFailures",
                "--scaling-config", "MaximumConcurrency=5", "--no-enabled");
        assertThat(created.exit()).as(created.err()).isZero();
        JsonNode c = JSON.readTree(created.out());
        String uuid = c.path("UUID").asText();
        assertThat(c.path("State").asText()).isEqualTo("Creating");
        assertThat(c.path("BatchSize").asInt()).isEqualTo(3);
        assertThat(c.path("ScalingConfig").path("MaximumConcurrency").asInt()).isEqualTo(5);

        JsonNode got = JSON.readTree(aws("get-event-source-mapping", "--uuid", uuid).out());
        assertThat(got.path("State").asText()).isEqualTo("Disabled");

        JsonNode listed = JSON.readTree(aws("list-event-source-mappings", "--event-source-arn", arn(q)).out());
        assertThat(listed.path("EventSourceMappings")).hasSize(1);
        assertThat(listed.path("EventSourceMappings").get(0).path("UUID").asText()).isEqualTo(uuid);

        Run updated = aws("update-event-source-mapping", "--uuid", uuid, "--batch-size", "10", "--enabled");
        assertThat(updated.exit()).as(updated.err()).isZero();
        assertThat(JSON.readTree(updated.out()).path("State").asText()).isEqualTo("Enabling");

        Run bad = aws("update-event-source-mapping", "--uuid", uuid, "--maximum-batching-window-in-seconds", "301");
        assertThat(bad.exit()).isNotZero();
        assertThat(bad.err()).contains("(ValidationException)")
                .contains("Value '301' at 'maximumBatchingWindowInSeconds' failed to satisfy constraint");

        Run deleted = aws("delete-event-source-mapping", "--uuid", uuid);
        assertThat(JSON.readTree(deleted.out()).path("State").asText()).isEqualTo("Deleting");
        Run missing = aws("get-event-source-mapping", "--uuid", uuid);
        assertThat(missing.exit()).isNotZero();
        assertThat(missing.err()).contains("(ResourceNotFoundException)").contains("The resource you requested does not exist.");
    }
}
