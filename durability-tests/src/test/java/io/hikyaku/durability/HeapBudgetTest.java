package io.hikyaku.durability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchResponse;
import software.amazon.awssdk.services.sqs.model.SqsException;

/**
 * The real server under a tiny heap (64 MiB) with a backlog several times its index budget
 * (docs/operations.md "Memory"): it never dies, counts the whole backlog, drains it, and starts
 * again on its own data serving the head at once. With a store that keeps nothing on disk, sends
 * past the budget get RequestThrottled while receives and deletes keep working.
 */
class HeapBudgetTest {

    private static final List<String> TINY_HEAP = List.of("-Xmx64m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
            "-XX:+ExitOnOutOfMemoryError");
    private static final int BUDGET = 20_000;
    private static final int BACKLOG = 100_000;

    @TempDir
    Path tmp;

    private Path log(String name) {
        return Path.of(System.getProperty("hikyaku.durability.logs", tmp.resolve("logs").toString())).resolve(name);
    }

    private static long visible(SqsClient sqs, String url) {
        return Long.parseLong(sqs.getQueueAttributes(b -> b.queueUrl(url)
                .attributeNames(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES)).attributes()
                .get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES));
    }

    private static void sendAll(SqsClient sqs, String url, int from, int to) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> work = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                int first = from + t * 10;
                work.add(pool.submit(() -> {
                    for (int i = first; i < to; i += 80) {
                        List<SendMessageBatchRequestEntry> batch = new ArrayList<>();
                        for (int j = i; j < Math.min(i + 10, to); j++) {
                            batch.add(SendMessageBatchRequestEntry.builder().id("e" + j)
                                    .messageBody("message-" + j + "-" + "x".repeat(100)).build());
                        }
                        SendMessageBatchResponse r = sqs.sendMessageBatch(b -> b.queueUrl(url).entries(batch));
                        assertThat(r.failed()).isEmpty();
                    }
                    return null;
                }));
            }
            for (Future<?> f : work) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** Receives and deletes until the queue is empty; returns the distinct bodies seen (fails on a duplicate). */
    private static Set<String> drain(SqsClient sqs, String url) throws Exception {
        Set<String> seen = ConcurrentHashMap.newKeySet();
        AtomicInteger duplicates = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> work = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                work.add(pool.submit(() -> {
                    int empty = 0;
                    while (empty < 3) {
                        List<Message> got = sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(10)
                                .waitTimeSeconds(1).visibilityTimeout(120)).messages();
                        if (got.isEmpty()) {
                            empty++;
                            continue;
                        }
                        empty = 0;
                        List<DeleteMessageBatchRequestEntry> del = new ArrayList<>();
                        for (Message m : got) {
                            if (!seen.add(m.body())) {
                                duplicates.incrementAndGet();
                            }
                            del.add(DeleteMessageBatchRequestEntry.builder().id("d" + del.size())
                                    .receiptHandle(m.receiptHandle()).build());
                        }
                        assertThat(sqs.deleteMessageBatch(b -> b.queueUrl(url).entries(del)).failed()).isEmpty();
                    }
                    return null;
                }));
            }
            for (Future<?> f : work) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(duplicates.get()).as("messages received twice").isZero();
        return seen;
    }

    @Test
    void aBacklogFiveTimesTheBudgetIsCountedDrainedAndSurvivesARestart() throws Exception {
        Path jar = ServerProcess.builtJar();
        Path data = tmp.resolve("data");
        List<String> serve = List.of("--storage", "rocksdb", "--durability", "batch", "--data-dir", data.toString(),
                "--max-indexed-messages", Integer.toString(BUDGET));
        String url;
        try (ServerProcess server = ServerProcess.start(jar, TINY_HEAP, serve, log("heap-budget-0.log"), 60);
             SqsClient sqs = Clients.sqs(server.endpoint())) {
            url = sqs.createQueue(b -> b.queueName("backlog")).queueUrl();
            sendAll(sqs, url, 0, BACKLOG);
            assertThat(visible(sqs, url)).isEqualTo(BACKLOG);
            assertThat(server.logText()).contains(" messages are kept on disk only (past a queue's index window of 65536"
                    + " messages or the in-memory index budget of " + BUDGET + " entries)");
            List<Message> first = sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(10)).messages();
            assertThat(first).hasSize(10);
            for (Message m : first) {
                sqs.deleteMessage(d -> d.queueUrl(url).receiptHandle(m.receiptHandle()));
            }
            assertThat(server.alive()).isTrue();
            server.kill(); // SIGKILL: the restart must come up on its own data with the same tiny heap
        }
        try (ServerProcess server = ServerProcess.start(jar, TINY_HEAP, serve, log("heap-budget-1.log"), 60);
             SqsClient sqs = Clients.sqs(server.endpoint())) {
            assertThat(server.logText()).contains("index budget " + BUDGET + " messages");
            List<Message> head = sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(10)).messages();
            assertThat(head).as("the head is served at once after the restart").hasSize(10);
            sqs.changeMessageVisibilityBatch(b -> b.queueUrl(url).entries(head.stream().map(m ->
                    software.amazon.awssdk.services.sqs.model.ChangeMessageVisibilityBatchRequestEntry.builder()
                            .id(m.messageId()).receiptHandle(m.receiptHandle()).visibilityTimeout(0).build()).toList()));
            assertThat(visible(sqs, url)).isEqualTo(BACKLOG - 10);
            Set<String> drained = drain(sqs, url);
            assertThat(drained).hasSize(BACKLOG - 10);
            assertThat(server.alive()).isTrue();
        }
    }

    @Test
    void withAStoreThatKeepsNothingOnDiskSendsPastTheBudgetGetRequestThrottled() throws Exception {
        Path jar = ServerProcess.builtJar();
        int budget = 5_000;
        List<String> serve = List.of("--storage", "memory", "--max-indexed-messages", Integer.toString(budget));
        try (ServerProcess server = ServerProcess.start(jar, TINY_HEAP, serve, log("heap-budget-memory.log"), 60);
             SqsClient sqs = Clients.sqs(server.endpoint())) {
            String url = sqs.createQueue(b -> b.queueName("full")).queueUrl();
            sendAll(sqs, url, 0, budget);
            assertThatThrownBy(() -> sqs.sendMessage(b -> b.queueUrl(url).messageBody("one too many")))
                    .isInstanceOfSatisfying(SqsException.class, e -> {
                        assertThat(e.statusCode()).isEqualTo(403);
                        assertThat(e.awsErrorDetails().errorCode()).isEqualTo("RequestThrottled");
                        assertThat(e.awsErrorDetails().errorMessage()).isEqualTo("The server's in-memory message index is "
                                + "full (--max-indexed-messages); retry after consumers have deleted messages.");
                        assertThat(e.isThrottlingException()).isTrue(); // the SDKs back off and retry it
                    });
            Message m = sqs.receiveMessage(b -> b.queueUrl(url)).messages().get(0);
            sqs.deleteMessage(b -> b.queueUrl(url).receiptHandle(m.receiptHandle()));
            sqs.sendMessage(b -> b.queueUrl(url).messageBody("fits again"));
            assertThat(visible(sqs, url)).isEqualTo(budget);
            assertThat(server.logText()).contains("sends refused with RequestThrottled: the in-memory index budget of "
                    + budget + " entries is used up");
        }
    }
}
