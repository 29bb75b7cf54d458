package io.hikyaku.it.sse;

import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.it.support.SqsTestBase;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** boto3's sqs and kms clients on encrypted queues ({@code compat/sse/sse_check.py}): the KMS.* errors and recovery. */
class Boto3SseCheckTest extends SqsTestBase {

    @Test
    void sseCheckPasses() throws Exception {
        Path script = Path.of("..", "compat", "sse", "sse_check.py").toAbsolutePath().normalize();
        assertThat(script).exists();
        ProcessBuilder pb = new ProcessBuilder("python3", script.toString(), endpoint);
        pb.environment().put("AWS_EC2_METADATA_DISABLED", "true");
        pb.redirectErrorStream(true);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        assertThat(out).startsWith("ok: ");
    }
}
