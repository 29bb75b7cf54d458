package io.hikyaku.it.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Real clients run as processes against the test's server: a {@code compat/} script under a Python (which prints
 * {@code ok: ...} and exits 0 when every check held), or a CLI command, with test credentials and no instance
 * metadata lookups.
 */
public final class ClientScripts {

    /** What a process printed and how it ended. */
    public record Result(int exit, String stdout, String stderr) { }

    private ClientScripts() {
    }

    /**
     * The Pythons to run a boto3 script with: {@code python3} on the PATH (current boto3, JSON protocol for SQS) and,
     * when there is one, Debian's {@code /usr/bin/python3} (python3-boto3 1.26, the Query protocol).
     */
    public static List<String> pythons() {
        List<String> p = new ArrayList<>(List.of("python3"));
        if (Files.isExecutable(Path.of("/usr/bin/python3"))) {
            p.add("/usr/bin/python3");
        }
        return p;
    }

    /** Runs {@code compat/<script>} with {@code python} and the arguments; it must pass. Returns its output. */
    public static String runCheck(String python, String script, String... args) throws Exception {
        Path path = Path.of("..", "compat").resolve(script).toAbsolutePath().normalize();
        assertThat(path).exists();
        List<String> command = new ArrayList<>(List.of(python, path.toString()));
        command.addAll(List.of(args));
        Result r = run(command);
        assertThat(r.exit()).as(r.stdout() + r.stderr()).isZero();
        assertThat(r.stdout()).startsWith("ok: ");
        return r.stdout();
    }

    /** Runs a command with test credentials in us-east-1, waiting at most two minutes. */
    public static Result run(List<String> command) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().put("AWS_ACCESS_KEY_ID", "test");
        pb.environment().put("AWS_SECRET_ACCESS_KEY", "test");
        pb.environment().put("AWS_DEFAULT_REGION", "us-east-1");
        pb.environment().put("AWS_EC2_METADATA_DISABLED", "true");
        Path err = Files.createTempFile("client-stderr", ".txt");
        pb.redirectError(err.toFile());
        try {
            Process p = pb.start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor(120, TimeUnit.SECONDS)).as(String.join(" ", command)).isTrue();
            return new Result(p.exitValue(), out, Files.readString(err));
        } finally {
            Files.deleteIfExists(err);
        }
    }
}
