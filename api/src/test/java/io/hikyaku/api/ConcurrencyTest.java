package io.hikyaku.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Producers and long-polling consumers at once: every message is delivered and deleted exactly once. */
class ConcurrencyTest {

    private static final int PRODUCERS = 4;
    private static final int PER_PRODUCER = 100;

    private final ServiceHarness sqs = new ServiceHarness();
    private final ExecutorService pool = Executors.newFixedThreadPool(PRODUCERS + 4);

    @AfterEach
    void close() throws Exception {
        pool.shutdownNow();
        pool.awaitTermination(5, TimeUnit.SECONDS);
        sqs.close();
    }

    @Test
    void everyMessageIsReceivedOnce() throws Exception {
        String url = sqs.createQueue("busy", null);
        Set<String> received = ConcurrentHashMap.newKeySet();
        AtomicInteger duplicates = new AtomicInteger();
        int total = PRODUCERS * PER_PRODUCER;
        List<Future<?>> consumers = new ArrayList<>();
        for (int c = 0; c < 4; c++) {
            consumers.add(pool.submit(() -> {
                long stopAt = System.currentTimeMillis() + 10_000;
                while (received.size() < total && System.currentTimeMillis() < stopAt) {
                    // A wait may last until the end of the test (the fake clock ends it): await it longer than a call.
                    ObjectNode got = sqs.start("ReceiveMessage",
                            "{\"QueueUrl\":\"" + url + "\",\"MaxNumberOfMessages\":10,\"WaitTimeSeconds\":20}")
                            .get(60, TimeUnit.SECONDS);
                    for (JsonNode m : got.path("Messages")) {
                        if (!received.add(m.get("Body").asText())) {
                            duplicates.incrementAndGet();
                        }
                        sqs.call("DeleteMessage", "{\"QueueUrl\":\"" + url + "\",\"ReceiptHandle\":\""
                                + m.get("ReceiptHandle").asText() + "\"}");
                    }
                }
                return null;
            }));
        }
        List<Future<?>> producers = new ArrayList<>();
        for (int p = 0; p < PRODUCERS; p++) {
            int producer = p;
            producers.add(pool.submit(() -> {
                for (int i = 0; i < PER_PRODUCER; i++) {
                    sqs.send(url, "p" + producer + "-" + i);
                }
                return null;
            }));
        }
        for (Future<?> f : producers) {
            f.get(10, TimeUnit.SECONDS);
        }
        long deadline = System.currentTimeMillis() + 10_000;
        while (received.size() < total && System.currentTimeMillis() < deadline) {
            Thread.sleep(10);
        }
        assertThat(received).hasSize(total);
        assertThat(duplicates.get()).isZero();
        // Release the consumers still parked: their waits end when the fake clock passes 20 s.
        sqs.clock.advance(java.time.Duration.ofSeconds(21));
        for (Future<?> f : consumers) {
            f.get(60, TimeUnit.SECONDS);
        }
    }
}
