package io.hikyaku.store.rocksdb;

import io.hikyaku.engine.store.Keyspace;
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

/**
 * SIGKILLs a writing process at random moments, every other cycle while it runs manual flushes and
 * compactions back to back; every acknowledged batch must survive, atomically, and every reopen must
 * succeed (no false "damaged" refusal, issue 3). Between kills the test opens and closes the store
 * without writing, which is what exposed RocksDB's sequence number going backwards.
 */
class ProcessCrashTest {

    private static final int CYCLES = 6;

    @TempDir
    Path tmp;

    /** What the test reads from one child's standard output. */
    private static final class ChildOutput {
        final AtomicLong opened = new AtomicLong(-1);
        final AtomicLong maxAck = new AtomicLong(-1);
        final AtomicLong compactionsStarted = new AtomicLong();
        final AtomicLong compactionsDone = new AtomicLong();
    }

    @Test
    void acknowledgedBatchesSurviveSigkillAndStateIsAPrefix() throws Exception {
        Path dir = tmp.resolve("data");
        long expectedStart = 0;
        int killedMidCompaction = 0;
        for (int cycle = 0; cycle < CYCLES; cycle++) {
            boolean compacting = cycle % 2 == 1;
            ProcessBuilder builder = compacting
                    ? new ProcessBuilder(javaBin(), "-Xmx64m", "-cp", System.getProperty("java.class.path"),
                            CrashChild.class.getName(), dir.toString(), "FSYNC", "compact")
                    : new ProcessBuilder(javaBin(), "-Xmx64m", "-cp", System.getProperty("java.class.path"),
                            CrashChild.class.getName(), dir.toString(), "FSYNC");
            Process child = builder.redirectError(ProcessBuilder.Redirect.INHERIT).start();
            ChildOutput output = new ChildOutput();
            long start = expectedStart;
            Thread reader = readOutput(child, output);
            try {
                waitUntil(child, () -> output.maxAck.get() >= start + 20, 90); // a loaded CI machine starts JVMs slowly
                assertThat(output.opened.get()).as("cycle " + cycle + ": child resumed after the last batch").isEqualTo(start);
                assertThatThrownBy(() -> RocksDbStore.open(dir))
                        .hasMessageContaining("is in use by another Hikyaku process");
                if (compacting) {
                    waitUntil(child, () -> output.compactionsDone.get() >= 2, 60); // compactions with data done
                    long done = output.compactionsDone.get();
                    waitUntil(child, () -> output.compactionsStarted.get() > done + 1, 60); // the next one runs
                    Thread.sleep(ThreadLocalRandom.current().nextInt(0, 5));
                } else {
                    Thread.sleep(ThreadLocalRandom.current().nextInt(50, 300));
                }
            } finally {
                child.destroyForcibly(); // SIGKILL
                child.waitFor(10, TimeUnit.SECONDS);
                reader.join(5_000);
            }
            if (compacting && output.compactionsStarted.get() > output.compactionsDone.get()) {
                killedMidCompaction++; // its "COMPACTED" never came: killed inside flushAndCompact
            }
            long acked = output.maxAck.get();
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
        System.out.printf("ProcessCrashTest: %d kill cycles, %d of %d compacting cycles killed inside a "
                + "flushAndCompact, %d batches in all%n", CYCLES, killedMidCompaction, CYCLES / 2, expectedStart);
    }

    private static Thread readOutput(Process child, ChildOutput output) {
        Thread t = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    if (line.startsWith("ACK ")) {
                        output.maxAck.accumulateAndGet(Long.parseLong(line.substring(4)), Math::max);
                    } else if (line.startsWith("OPEN ")) {
                        output.opened.set(Long.parseLong(line.substring(5)));
                    } else if (line.startsWith("COMPACTING ")) {
                        output.compactionsStarted.incrementAndGet();
                    } else if (line.startsWith("COMPACTED ")) {
                        output.compactionsDone.incrementAndGet();
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

    private static void waitUntil(Process child, java.util.function.BooleanSupplier condition, int seconds)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!condition.getAsBoolean()) {
            if (!child.isAlive()) {
                throw new AssertionError("the child process exited (code " + child.exitValue()
                        + ", its error output is above): did it fail to open the store?");
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not met within " + seconds + " s");
            }
            Thread.sleep(2);
        }
    }

    private static String javaBin() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
