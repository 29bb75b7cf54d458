package io.hikyaku.durability;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.sqs.SqsClient;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The real small disk: the server's data directory is on a 48 MiB tmpfs that a filler file fills up
 * while producers (16 KiB bodies) and consumers run on a standard and a FIFO queue. The server must
 * refuse with 503 ServiceUnavailable (nothing changed) while the disk is full, report "degraded" on
 * /health, and serve again by itself once the filler is deleted; then it is SIGKILLed and restarted.
 * Checked with the crash harness's {@link Ledger}: no send answered 503 is ever received (no
 * phantom), every acknowledged send is received or drained, no acknowledged delete comes back, counts
 * within bounds after recovery and after the restart.
 *
 * <p>Needs root and mount(8) (CI runs as root). Elsewhere it says so and is skipped: the same
 * guarantees are then covered by FailStopModelTest (api, a fault-injecting store) and SpaceLimitTest
 * (store-rocksdb, RocksDB's space quota standing in for a full disk).
 */
class DiskFullServerTest {

    private static final int PADDING = 16 * 1024;

    @TempDir
    Path tmp;

    @Test
    void aFullDiskIsRefusedCleanlyAndNothingIsLostOrInvented() throws Exception {
        Path jar = ServerProcess.builtJar();
        Path mnt = Files.createDirectory(tmp.resolve("mnt"));
        boolean mounted = "root".equals(System.getProperty("user.name"))
                && run("mount", "-t", "tmpfs", "-o", "size=48m", "tmpfs", mnt.toString());
        if (!mounted) {
            String why = "DiskFullServerTest: cannot mount a tmpfs here (needs root and mount(8)); the real small-disk "
                    + "test is NOT run. Fail-stop is covered instead by FailStopModelTest (fault-injecting store) and "
                    + "SpaceLimitTest (RocksDB space quota).";
            System.out.println(why);
            assumeTrue(false, why);
        }
        Path logs = Path.of(System.getProperty("hikyaku.durability.logs", tmp.resolve("logs").toString()));
        Path dataDir = mnt.resolve("data");
        Path filler = mnt.resolve("filler");
        Ledger std = new Ledger("diskfull-std", false);
        Ledger fifo = new Ledger("diskfull.fifo", true);
        AtomicLong counter = new AtomicLong();
        ServerProcess server = null;
        try {
            server = ServerProcess.start(jar, dataDir, logs.resolve("server-0.log"), 60);
            long refusals;
            long recoveryMillis;
            String degraded;
            try (SqsClient sqs = Clients.sqs(server.endpoint())) {
                CrashRecoveryTest.createQueues(sqs, std, fifo);
                String stdUrl = CrashRecoveryTest.queueUrl(sqs, std, 0);
                String fifoUrl = CrashRecoveryTest.queueUrl(sqs, fifo, 0);
                Workload load = new Workload(sqs, counter, PADDING);
                load.standardAndFifo(std, stdUrl, fifo, fifoUrl);
                Thread.sleep(1_000);

                fill(filler);
                degraded = awaitHealth(server, "degraded", 60);
                assertThat(degraded).as("/health while the disk is full (log %s)", logs).contains("degraded");
                Thread.sleep(2_000); // clients keep running against the full disk
                refusals = load.refusals.get();

                Files.delete(filler);
                long freed = System.nanoTime();
                System.out.printf("disk full: space freed, %d MiB free of %d MiB%n",
                        Files.getFileStore(mnt).getUsableSpace() >> 20, Files.getFileStore(mnt).getTotalSpace() >> 20);
                awaitHealth(server, "\"ok\"", 60);
                awaitSend(sqs, stdUrl, std, counter);
                recoveryMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - freed);
                Thread.sleep(1_500); // and against the recovered server
                load.stop();
                CrashRecoveryTest.checkCounts(sqs, stdUrl, std, 0);
                CrashRecoveryTest.checkCounts(sqs, fifoUrl, fifo, 0);
            }
            server.kill();
            server = ServerProcess.start(jar, dataDir, logs.resolve("server-1.log"), 60);
            CrashRecoveryTest.checkCountsDrainAndFinal(server, 1, std, fifo);
            System.out.printf("disk full: %s; %d answers 503 while full; serving again %d ms after space was freed; "
                            + "std %d sends acked, %d refused, %d deletes acked, %d drained; fifo %d acked, %d refused, "
                            + "%d deletes acked, %d drained%n", degraded, refusals, recoveryMillis,
                    std.sendAcked.size(), std.sendRefused.size(), std.deleteAcked.size(), std.drained.size(),
                    fifo.sendAcked.size(), fifo.sendRefused.size(), fifo.deleteAcked.size(), fifo.drained.size());
            assertThat(refusals).as("the full disk was noticed by clients").isPositive();
            assertThat(std.sendAcked).isNotEmpty();
            assertThat(fifo.sendAcked).isNotEmpty();
        } finally {
            if (server != null) {
                server.close();
            }
            run("umount", "-l", mnt.toString());
        }
        List<String> violations = new ArrayList<>(std.violations);
        violations.addAll(fifo.violations);
        assertThat(violations).as("fail-stop violations (server logs in %s)", logs).isEmpty();
    }

    /** Writes a file until the file system is full. */
    private static void fill(Path filler) {
        byte[] chunk = new byte[64 * 1024];
        try (OutputStream out = Files.newOutputStream(filler)) {
            while (true) {
                out.write(chunk);
            }
        } catch (IOException full) {
            // ENOSPC: the file system is full now
        }
    }

    private static String awaitHealth(ServerProcess server, String expected, int seconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        String body = server.health();
        while (!body.contains(expected)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("/health never said " + expected + " within " + seconds + " s; last: " + body
                        + "\nthe server's store and recovery lines:\n" + server.logLines("StoreRecovery|StoreHealth|RocksDb|ERROR", 40));
            }
            Thread.sleep(50);
            body = server.health();
        }
        return body;
    }

    /** One send that succeeds: the server serves again (retrying 503s while it reloads). */
    private static void awaitSend(SqsClient sqs, String url, Ledger ledger, AtomicLong counter) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            String body = String.format("std-%09d", counter.incrementAndGet());
            ledger.sendAttempted.add(body);
            try {
                sqs.sendMessage(b -> b.queueUrl(url).messageBody(body));
                ledger.sendAcked.put(body, "");
                return;
            } catch (software.amazon.awssdk.awscore.exception.AwsServiceException e) {
                if (e.statusCode() == 503) {
                    ledger.sendRefused.add(body);
                }
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("no send succeeded within 30 s after space was freed: " + e.getMessage());
                }
                Thread.sleep(50);
            }
        }
    }

    private static boolean run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
    }
}
