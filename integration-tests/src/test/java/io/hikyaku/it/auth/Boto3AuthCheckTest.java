package io.hikyaku.it.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The compatibility matrix's boto3 auth check ({@code compat/auth/auth_check.py}: authentication,
 * the negative matrix, and authorization by identity and queue policies, explicit Deny, owner-only
 * actions and anonymous callers) run against this server, whose identities are the same: current
 * boto3 over JSON, and Debian's boto3 1.26 over Query when installed.
 */
class Boto3AuthCheckTest extends AuthTestBase {

    static List<Arguments> pythons() {
        List<Arguments> p = new ArrayList<>();
        p.add(Arguments.of("python3", "json"));
        if (Files.isExecutable(Path.of("/usr/bin/python3"))) {
            p.add(Arguments.of("/usr/bin/python3", "query"));
        }
        return p;
    }

    @ParameterizedTest
    @MethodSource("pythons")
    void authCheckPasses(String python, String protocol) throws Exception {
        Path script = Path.of("..", "compat", "auth", "auth_check.py").toAbsolutePath().normalize();
        assertThat(script).exists();
        ProcessBuilder pb = new ProcessBuilder(python, script.toString(), endpoint, "--expect-protocol", protocol);
        pb.environment().put("AWS_EC2_METADATA_DISABLED", "true");
        pb.redirectErrorStream(true);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        assertThat(out).startsWith("ok: ").contains("protocol ['" + protocol + "']");
    }
}
