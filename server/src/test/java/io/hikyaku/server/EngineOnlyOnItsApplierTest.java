package io.hikyaku.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.hikyaku.api.EngineThreadCheck;
import io.hikyaku.testsupport.MutableClock;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 36: the engine has no lock, so nothing but its shard's applier thread may reach it. The
 * real server, durable, with every kind of reader and writer at once (sends, long polls, /metrics
 * scrapes, the console's peeks and CloudWatch calls, the CloudWatch sampler driven by a clock that
 * moves a minute at a time): the engine's thread check counts no access from any other thread.
 */
class EngineOnlyOnItsApplierTest {

    @TempDir
    Path dir;

    private final MutableClock clock = new MutableClock(Instant.parse("2026-12-07T08:00:00Z"));
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @Test
    void sendsLongPollsScrapesConsoleAndCloudWatchReadsNeverReachTheEngineOffItsApplier() throws Exception {
        long before = EngineThreadCheck.violations();
        ServerConfig cfg = ServerConfig.defaults().withPort(0).withStorage(StorageMode.ROCKSDB).withDataDir(dir)
                .withClock(clock);
        try (HikyakuServer server = HikyakuServer.start(cfg)) {
            String url;
            try (JsonSqs sqs = new JsonSqs(server.port())) {
                url = sqs.create("busy", JsonSqs.input());
            }
            AtomicBoolean stop = new AtomicBoolean();
            ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
            AtomicInteger sends = new AtomicInteger();
            AtomicInteger polls = new AtomicInteger();
            AtomicInteger scrapes = new AtomicInteger();
            AtomicInteger consoleReads = new AtomicInteger();
            List<Thread> threads = new ArrayList<>();
            threads.add(loop(stop, failures, () -> {
                try (JsonSqs sqs = new JsonSqs(server.port())) {
                    while (!stop.get()) {
                        sqs.send(url, "m" + sends.incrementAndGet());
                    }
                }
            }));
            threads.add(loop(stop, failures, () -> {
                try (JsonSqs sqs = new JsonSqs(server.port())) {
                    while (!stop.get()) {
                        sqs.call("ReceiveMessage", JsonSqs.input().put("QueueUrl", url).put("WaitTimeSeconds", 1)
                                .put("MaxNumberOfMessages", 10).put("VisibilityTimeout", 0));
                        polls.incrementAndGet();
                    }
                }
            }));
            threads.add(loop(stop, failures, () -> {
                while (!stop.get()) {
                    HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(server.endpoint() + "/metrics")).build(),
                            HttpResponse.BodyHandlers.ofString());
                    assertThat(r.statusCode()).isEqualTo(200);
                    assertThat(r.body()).contains("busy");
                    scrapes.incrementAndGet();
                }
            }));
            threads.add(loop(stop, failures, () -> {
                while (!stop.get()) {
                    assertThat(json(server, "Hikyaku.PeekMessages", "{\"QueueUrl\":\"" + url + "\"}").statusCode()).isEqualTo(200);
                    assertThat(json(server, "GraniteServiceVersion20100801.ListMetrics", "{}").statusCode()).isEqualTo(200);
                    consoleReads.incrementAndGet();
                }
            }));
            threads.add(loop(stop, failures, () -> {
                while (!stop.get()) {
                    Thread.sleep(250);
                    clock.advance(Duration.ofSeconds(61)); // a new minute: the CloudWatch sampler reads every queue
                }
            }));
            threads.forEach(Thread::start);
            Thread.sleep(4000);
            stop.set(true);
            for (Thread t : threads) {
                t.join(15_000);
            }
            assertThat(failures).isEmpty();
            assertThat(sends.get()).isPositive();
            assertThat(polls.get()).isPositive();
            assertThat(scrapes.get()).isPositive();
            assertThat(consoleReads.get()).isPositive();
            JsonNode listed = JsonSqs.JSON.readTree(json(server, "GraniteServiceVersion20100801.ListMetrics", "{}").body());
            assertThat(listed.toString()).contains("busy"); // the sampler did read the queue
        }
        assertThat(EngineThreadCheck.violations()).isEqualTo(before);
    }

    private HttpResponse<String> json(HikyakuServer server, String target, String body) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(server.endpoint() + "/"))
                .header("Content-Type", "application/x-amz-json-1.0").header("X-Amz-Target", target)
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    @FunctionalInterface
    interface Body {
        void run() throws Exception;
    }

    private static Thread loop(AtomicBoolean stop, ConcurrentLinkedQueue<Throwable> failures, Body body) {
        Thread t = new Thread(() -> {
            try {
                body.run();
            } catch (Throwable e) {
                failures.add(e);
                stop.set(true);
            }
        });
        t.setDaemon(true);
        return t;
    }
}
