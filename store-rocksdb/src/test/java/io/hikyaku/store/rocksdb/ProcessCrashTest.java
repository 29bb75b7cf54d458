package io.hikyaku.store.rocksdb;

import io.hikyaku.engine.store.Keyspace;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** SIGKILLs a writing process at random moments; every acknowledged batch must survive, atomically. */
class ProcessCrashTest {

    @TempDir
    Path tmp;

    @Test
    @Disabled("open bug (issue 3): after a SIGKILL the DURABLE_SEQUENCE check once refused to reopen, WAL recovered"
            + " sequence 14199 vs 14200 acknowledged; the refusal is safe (nothing is dropped) but must be explained"
            + " before this test is re-enabled; the server-level crash harness durability-tests still runs")
    void acknowledgedBatchesSurviveSigkillAndStateIsAPrefix() throws Exception {
        Path dir = tmp.resolve("data");
        long expectedStart = 0;
        for (int cycle = 0; cycle < 4; cycle++) {
            Process child = new ProcessBuilder(javaBin(), "-Xmx64m", "-cp", System.getProperty("java.class.path"),
                    CrashChild.class.getName(), dir.toString(), "FSYNC")
                    .redirectError(ProcessBuilder.Redirect.INHERIT).start();
            AtomicLong maxAck = new AtomicLong(-1);
            long start = expectedStart;
            Thread reader = readAcks(child, maxAck, start);
            try {
                waitUntil(() -> maxAck.get() >= start + 20, 90); // generous: a loaded CI machine starts JVMs slowly
                assertThatThrownBy(() -> RocksDbStore.open(dir))
                        .hasMessageContaining("is in use by another Hikyaku process");
                Thread.sleep(ThreadLocalRandom.current().nextInt(50, 300));
            } finally {
                child.destroyForcibly(); // SIGKILL
                child.waitFor(10, TimeUnit.SECONDS);
                reader.join(5_000);
            }
            long acked = maxAck.get();
            try (RocksDbStore store = RocksDbStore.open(dir)) {
                long last = Long.parseLong(new String(store.get(Keyspace.META, CrashChild.key("last")),
                        StandardCharsets.UTF_8));
                assertThat(last).as("cycle " + cycle + ": last batch on disk vs last acknowledged").isGreaterThanOrEqualTo(acked);
                Set<String> present = new HashSet<>();
                store.scan(Keyspace.MESSAGES, new byte[0], (k, v) -> {
                    present.add(new String(k, StandardCharsets.UTF_8));
                    assertThat(v).isEqualTo(CrashChild.body(Long.parseLong(new String(k, StandardCharsets.UTF_8).substring(1))));
                    return true;
                });
                Set<String> expected = new HashSet<>();
                for (long n = Math.max(0, last - CrashChild.WINDOW + 1); n <= last; n++) {
                    expected.add("m" + n);
                }
                assertThat(present).as("cycle " + cycle + ": exactly the window ending at batch " + last)
                        .isEqualTo(expected);
                expectedStart = last + 1;
            }
        }
    }

    private static Thread readAcks(Process child, AtomicLong maxAck, long expectedStart) {
        Thread t = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    if (line.startsWith("ACK ")) {
                        maxAck.accumulateAndGet(Long.parseLong(line.substring(4)), Math::max);
                    } else if (line.startsWith("OPEN ")) {
                        assertThat(Long.parseLong(line.substring(5))).isEqualTo(expectedStart);
                    }
                }
            } catch (Exception ignored) {
                // the child was killed mid-line
            }
        });
        t.setDaemon(true);
        t.start();
        return t;
    }

    private static void waitUntil(java.util.function.BooleanSupplier condition, int seconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not met within " + seconds + " s");
            }
            Thread.sleep(10);
        }
    }

    private static String javaBin() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
