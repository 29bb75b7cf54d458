package io.hikyaku.durability;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.GetQueueAttributesResponse;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueDoesNotExistException;

import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs the real server, drives concurrent producers and consumers on a standard and a FIFO queue,
 * SIGKILLs the server at random moments and restarts it on the same data directory. Checks that
 * every acknowledged send is still there (or was received and deleted), no acknowledged delete comes
 * back, nothing is stored twice, FIFO order and sequence numbers survive, and counts are right after
 * each recovery. Skipped only if the server jar has not been built.
 */
class CrashRecoveryTest {

    private static final int CYCLES = Integer.getInteger("hikyaku.durability.cycles", 8);
    private static final long BUDGET_NANOS = TimeUnit.SECONDS.toNanos(75);

    @TempDir
    Path tmp;

    @Test
    void sigkilledServerLosesNothingAcknowledged() throws Exception {
        Path jar = ServerProcess.builtJar();
        Path logs = Path.of(System.getProperty("hikyaku.durability.logs", tmp.resolve("logs").toString()));
        Path dataDir = tmp.resolve("data");
        long started = System.nanoTime();

        Ledger std = new Ledger("durability-std", false);
        Ledger fifo = new Ledger("durability.fifo", true);
        AtomicLong counter = new AtomicLong();
        ServerProcess server = ServerProcess.start(jar, dataDir, logs.resolve("server-0.log"), 60);
        try {
            try (SqsClient sqs = Clients.sqs(server.endpoint())) {
                createQueues(sqs, std, fifo);
            }
            int cycle = 0;
            while (cycle < CYCLES && (cycle < 3 || System.nanoTime() - started < BUDGET_NANOS)) {
                try (SqsClient sqs = Clients.sqs(server.endpoint())) {
                    String stdUrl = queueUrl(sqs, std, cycle);
                    String fifoUrl = queueUrl(sqs, fifo, cycle);
                    checkCounts(sqs, stdUrl, std, cycle);
                    checkCounts(sqs, fifoUrl, fifo, cycle);
                    Workload load = new Workload(sqs, counter);
                    load.standardAndFifo(std, stdUrl, fifo, fifoUrl);
                    Thread.sleep(ThreadLocalRandom.current().nextInt(700, 2_000));
                    server.kill();
                    load.stop();
                }
                cycle++;
                if (Boolean.getBoolean("hikyaku.durability.sabotage")) {
                    sabotage(dataDir);
                }
                server = ServerProcess.start(jar, dataDir, logs.resolve("server-" + cycle + ".log"), 60);
            }
            checkCountsDrainAndFinal(server, cycle, std, fifo);
            System.out.printf("durability: %d crash cycles in %.1f s; std %d sends acked, %d deletes acked, %d drained; "
                            + "fifo %d sends acked, %d deletes acked, %d drained%n", cycle,
                    (System.nanoTime() - started) / 1e9, std.sendAcked.size(), std.deleteAcked.size(), std.drained.size(),
                    fifo.sendAcked.size(), fifo.deleteAcked.size(), fifo.drained.size());
            assertThat(cycle).isGreaterThanOrEqualTo(3);
            assertThat(std.sendAcked).as("the workload did run").isNotEmpty();
            assertThat(fifo.sendAcked).isNotEmpty();
        } finally {
            server.close();
        }
        List<String> violations = new ArrayList<>(std.violations);
        violations.addAll(fifo.violations);
        assertThat(violations).as("durability violations (server logs in %s)", logs).isEmpty();
    }

    /**
     * Harness self-check (run by hand with -Dhikyaku.durability.sabotage=true): deletes the WAL and
     * the durable-sequence marker between kill and restart, a silent loss the harness must report.
     */
    private static void sabotage(Path dataDir) throws java.io.IOException {
        try (var files = Files.list(dataDir)) {
            for (Path p : files.toList()) {
                String name = p.getFileName().toString();
                if (name.endsWith(".log") || name.equals("DURABLE_SEQUENCE")) {
                    Files.delete(p);
                }
            }
        }
    }

    /** Creates each ledger's queue (FIFO or standard) with the workload's visibility timeout. */
    static void createQueues(SqsClient sqs, Ledger... ledgers) {
        String visibility = Integer.toString(Workload.VISIBILITY_SECONDS);
        for (Ledger l : ledgers) {
            sqs.createQueue(b -> b.queueName(l.queueName).attributes(l.fifo
                    ? Map.of(QueueAttributeName.FIFO_QUEUE, "true", QueueAttributeName.VISIBILITY_TIMEOUT, visibility)
                    : Map.of(QueueAttributeName.VISIBILITY_TIMEOUT, visibility)));
        }
    }

    /**
     * The end of a run, with no client left: every queue's count is within its ledger's bounds after
     * recovery {@code cycle}, then each is drained and its ledger checked.
     */
    static void checkCountsDrainAndFinal(ServerProcess server, int cycle, Ledger... ledgers) {
        try (SqsClient sqs = Clients.sqs(server.endpoint())) {
            List<String> urls = new ArrayList<>();
            for (Ledger l : ledgers) {
                String url = queueUrl(sqs, l, cycle);
                urls.add(url);
                checkCounts(sqs, url, l, cycle);
            }
            for (int i = 0; i < ledgers.length; i++) {
                drain(sqs, urls.get(i), ledgers[i]);
            }
        }
        for (Ledger l : ledgers) {
            checkFinal(l);
        }
    }

    static String queueUrl(SqsClient sqs, Ledger ledger, int cycle) {
        try {
            return sqs.getQueueUrl(b -> b.queueName(ledger.queueName)).queueUrl();
        } catch (QueueDoesNotExistException e) {
            throw new AssertionError("queue " + ledger.queueName + " vanished after recovery " + cycle
                    + " (its acknowledged CreateQueue was lost)", e);
        }
    }

    /** With no client running, the queue holds between "certainly there" and "possibly there" messages. */
    static void checkCounts(SqsClient sqs, String url, Ledger ledger, int cycle) {
        long count = count(sqs, url);
        long min = ledger.mustHaveAtLeast();
        long max = ledger.mayHaveAtMost();
        if (count < min || count > max) {
            ledger.violation("after recovery " + cycle + " the queue counts " + count + " messages, expected between "
                    + min + " (acknowledged, not deleted) and " + max + " (attempted, not certainly deleted)");
        }
    }

    static long count(SqsClient sqs, String url) {
        GetQueueAttributesResponse r = sqs.getQueueAttributes(b -> b.queueUrl(url).attributeNames(
                QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES,
                QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE,
                QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_DELAYED));
        return r.attributes().values().stream().mapToLong(Long::parseLong).sum();
    }

    /** Receives and deletes everything left, waiting out the visibility of messages in flight at a crash. */
    static void drain(SqsClient sqs, String url, Ledger ledger) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(Workload.VISIBILITY_SECONDS + 20);
        while (System.nanoTime() < deadline) {
            long sentAt = System.nanoTime();
            List<Message> messages = sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(10).waitTimeSeconds(1)
                    .visibilityTimeout(60).messageSystemAttributeNames(MessageSystemAttributeName.SEQUENCE_NUMBER))
                    .messages();
            for (Message m : messages) {
                String body = Workload.name(m.body());
                ledger.onReceive(body, m.attributes().get(MessageSystemAttributeName.SEQUENCE_NUMBER), sentAt);
                ledger.drained.add(body);
                try {
                    sqs.deleteMessage(b -> b.queueUrl(url).receiptHandle(m.receiptHandle()));
                    ledger.deleteAcked.put(body, System.nanoTime());
                } catch (SdkException e) {
                    ledger.violation("delete failed while draining a healthy server: " + e.getMessage());
                }
            }
            if (messages.isEmpty() && count(sqs, url) == 0) {
                return;
            }
        }
        ledger.violation("could not drain the queue within the deadline; " + count(sqs, url) + " left");
    }

    static void checkFinal(Ledger ledger) {
        Set<String> drained = new HashSet<>();
        for (String body : ledger.drained) {
            if (!drained.add(body)) {
                ledger.violation("stored twice: " + body);
            }
        }
        Set<String> received = new HashSet<>(ledger.received);
        for (String body : ledger.sendAcked.keySet()) {
            boolean accounted = received.contains(body) || ledger.deleteUnknown.contains(body);
            if (!accounted) {
                ledger.violation("acknowledged send lost: " + body);
            }
        }
        if (ledger.fifo) {
            checkFifoOrder(ledger);
        }
    }

    /** Acknowledged FIFO messages are first received in send order, with increasing sequence numbers. */
    private static void checkFifoOrder(Ledger ledger) {
        List<String> firstReceipts = new ArrayList<>(new LinkedHashSet<>(ledger.received));
        String previous = null;
        for (String body : firstReceipts) {
            if (!ledger.sendAcked.containsKey(body)) {
                continue;
            }
            if (previous != null && body.compareTo(previous) < 0) {
                ledger.violation("FIFO order broken: " + body + " first received after " + previous);
            }
            if (previous != null && new BigInteger(ledger.sendAcked.get(body))
                    .compareTo(new BigInteger(ledger.sendAcked.get(previous))) <= 0) {
                ledger.violation("FIFO sequence numbers not increasing: " + previous + "=" + ledger.sendAcked.get(previous)
                        + " then " + body + "=" + ledger.sendAcked.get(body));
            }
            previous = body;
        }
    }
}
