package io.hikyaku.it.sse;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hikyaku.it.support.ClientScripts;
import io.hikyaku.it.support.SqsTestBase;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The AWS CLI on an SSE-KMS queue: a key made with {@code aws kms}, a message sent and received through it, and
 * SQS's KMS.DisabledException as the CLI prints it while the key is disabled. With the CLI on the PATH and, when
 * installed, Debian's {@code /usr/bin/aws} (awscli 2.9: the Query protocol).
 */
class AwsCliSseTest extends SqsTestBase {

    private static final ObjectMapper JSON = new ObjectMapper();

    static List<String> clis() {
        List<String> c = new ArrayList<>(List.of("aws"));
        if (Files.isExecutable(Path.of("/usr/bin/aws"))) {
            c.add("/usr/bin/aws");
        }
        return c;
    }

    private JsonNode aws(String cli, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(cli));
        command.addAll(List.of(args));
        command.addAll(List.of("--endpoint-url", endpoint, "--output", "json"));
        ClientScripts.Result r = ClientScripts.run(command);
        assertThat(r.exit()).as(String.join(" ", command) + ": " + r.stderr()).isZero();
        return r.stdout().isBlank() ? null : JSON.readTree(r.stdout());
    }

    @ParameterizedTest
    @MethodSource("clis")
    void sendAndReceiveThroughAKmsKeyAndTheDisabledKeysError(String cli) throws Exception {
        JsonNode key = aws(cli, "kms", "create-key", "--description", "cli sse").get("KeyMetadata");
        String keyId = key.get("KeyId").asText();
        String url = aws(cli, "sqs", "create-queue", "--queue-name", unique("cli-sse"),
                "--attributes", "KmsMasterKeyId=" + keyId).get("QueueUrl").asText();
        String marker = "marker " + unique("m");
        JsonNode sent = aws(cli, "sqs", "send-message", "--queue-url", url, "--message-body", marker);
        assertThat(sent.get("MD5OfMessageBody").asText()).isEqualTo(md5(marker));
        JsonNode got = aws(cli, "sqs", "receive-message", "--queue-url", url, "--wait-time-seconds", "1").get("Messages");
        assertThat(got).hasSize(1);
        assertThat(got.get(0).get("Body").asText()).isEqualTo(marker);
        assertThat(got.get(0).get("MD5OfBody").asText()).isEqualTo(md5(marker));

        aws(cli, "kms", "disable-key", "--key-id", keyId);
        ClientScripts.Result refused = ClientScripts.run(List.of(cli, "sqs", "send-message", "--queue-url", url,
                "--message-body", "x", "--endpoint-url", endpoint));
        assertThat(refused.exit()).isNotZero();
        assertThat(refused.stderr()).contains("An error occurred (KMS.DisabledException) when calling the SendMessage "
                + "operation: " + key.get("Arn").asText() + " is disabled.");
        aws(cli, "kms", "enable-key", "--key-id", keyId);
        assertThat(aws(cli, "sqs", "send-message", "--queue-url", url, "--message-body", "after").get("MessageId").asText())
                .isNotEmpty();
    }

    private static String md5(String s) throws Exception {
        return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("MD5")
                .digest(s.getBytes(StandardCharsets.UTF_8)));
    }
}
