package io.hikyaku.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.it.support.SqsTestBase;
import io.hikyaku.server.HikyakuServer;
import io.hikyaku.server.ServerConfig;
import io.hikyaku.server.StorageMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** EventBridge Scheduler on the real server, driven by boto3's scheduler client (python3 on the path). */
class SchedulerTest extends SqsTestBase {

    @Override
    protected ServerConfig configure(ServerConfig defaults) {
        return defaults.withClock(Clock.systemUTC()); // fires are measured against real time
    }

    static String boto3(String endpoint, String mode) throws Exception {
        Path script = Path.of("src", "test", "resources", "scheduler_boto3.py").toAbsolutePath();
        ProcessBuilder pb = new ProcessBuilder("python3", script.toString(), endpoint, mode);
        pb.environment().put("AWS_EC2_METADATA_DISABLED", "true");
        pb.redirectErrorStream(true);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        return out;
    }

    @Test
    void crudPagingErrorsAndFiresIntoStandardAndFifoQueues() throws Exception {
        assertThat(boto3(endpoint, "all")).startsWith("ok: boto3");
    }

    @Test
    void schedulesSurviveARestart(@TempDir Path dataDir) throws Exception {
        ServerConfig cfg = ServerConfig.defaults().withPort(0).withStorage(StorageMode.ROCKSDB).withDataDir(dataDir);
        try (HikyakuServer first = HikyakuServer.start(cfg)) {
            assertThat(boto3(first.endpoint(), "create-durable")).startsWith("ok: created");
        }
        try (HikyakuServer second = HikyakuServer.start(cfg)) {
            assertThat(boto3(second.endpoint(), "check-durable")).startsWith("ok: kept");
        }
    }
}
