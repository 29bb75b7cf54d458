package io.hikyaku.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.it.support.SqsTestBase;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** boto3's kms client against the real server ({@code compat/kms/kms_check.py}). */
class Boto3KmsCheckTest extends SqsTestBase {

    @Test
    void kmsCheckPasses() throws Exception {
        Path script = Path.of("..", "compat", "kms", "kms_check.py").toAbsolutePath().normalize();
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
