package io.hikyaku.clustertests;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cluster node started without {@code HIKYAKU_MASTER_KEY_FILE} refuses to start, saying why: any node may become
 * the leader and open the KMS keys, so all must share one master key (none may make its own).
 */
class ClusterMasterKeyRefusalTest {

    @TempDir
    Path dir;

    @Test
    void aNodeWithoutTheSharedMasterKeyRefusesToStart() throws Exception {
        List<Integer> ports = NodeProcess.freePorts(2);
        ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx128m", "-XX:TieredStopAtLevel=1", "-jar", NodeProcess.builtJar().toString(), "serve",
                "--host", "127.0.0.1", "--port", ports.get(0).toString(), "--data-dir", dir.resolve("n1").toString(),
                "--node-id", "n1", "--cluster", "n1=127.0.0.1:" + ports.get(1)).redirectErrorStream(true);
        builder.environment().remove("HIKYAKU_MASTER_KEY_FILE");
        Process process = builder.start();
        try {
            assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("the start is refused, not served").isTrue();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(process.exitValue()).as(output).isNotZero();
            assertThat(output).contains("cluster mode needs HIKYAKU_MASTER_KEY_FILE");
            assertThat(dir.resolve("n1").resolve("kms").resolve("master.key")).as("no key of its own").doesNotExist();
        } finally {
            process.destroyForcibly();
        }
    }
}
