package io.hikyaku.it.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The Scheduler with --auth sigv4 through boto3: scheduler:<Op> authorized; a RoleArn of another account refused. */
class SchedulerAuthorizationTest extends AuthTestBase {

    @Test
    void aUserWithoutSchedulerRightsIsRefusedAndTheRootActs() throws Exception {
        Path script = Path.of("src", "test", "resources", "scheduler_auth_boto3.py").toAbsolutePath();
        ProcessBuilder pb = new ProcessBuilder("python3", script.toString(), endpoint, A, ROOT_A, ROOT_A_SECRET, ALICE_1, ALICE_SECRET);
        pb.environment().put("AWS_EC2_METADATA_DISABLED", "true");
        pb.redirectErrorStream(true);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        assertThat(out).startsWith("ok: auth");
    }
}
