package io.hikyaku.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ready means ready: with a large config file (600 queues, durable store) a client probing the port
 * through the whole start never reaches the server before every configured queue exists, and a bad
 * queue at the end of the file stops the start before the port ever answered.
 */
class ReadinessTest {

    private static final int QUEUES = 600;

    @TempDir
    Path dir;

    /** Connects to the port again and again; once in, asks /health/ready and then for the last queue. */
    static final class Prober extends Thread {
        final int port;
        final String lastQueue;
        final AtomicBoolean stop = new AtomicBoolean();
        final AtomicInteger refused = new AtomicInteger();
        final AtomicInteger connected = new AtomicInteger();
        final List<String> answers = new CopyOnWriteArrayList<>();

        Prober(int port, String lastQueue) {
            super("readiness-prober");
            this.port = port;
            this.lastQueue = lastQueue;
            setDaemon(true);
        }

        @Override
        public void run() {
            while (!stop.get() && answers.isEmpty()) {
                try (Socket probe = new Socket("127.0.0.1", port)) {
                    connected.incrementAndGet();
                } catch (IOException notListening) {
                    refused.incrementAndGet();
                    pause();
                    continue;
                }
                try (RawHttp http = new RawHttp(port)) {
                    http.send("GET /health/ready HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
                    RawHttp.Response ready = http.read();
                    http.send(RawHttp.jsonCall("GetQueueUrl", "{\"QueueName\":\"" + lastQueue + "\"}"));
                    RawHttp.Response url = http.read();
                    answers.add(ready.status() + " " + url.status() + " " + url.body());
                } catch (IOException e) {
                    answers.add("failed: " + e);
                }
            }
        }

        private static void pause() {
            try {
                Thread.sleep(1); // pacing only: knock about once a millisecond
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        void finish() throws InterruptedException {
            join(30_000);
            stop.set(true);
            join(5_000);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static List<QueueDefinition> manyQueues() {
        List<QueueDefinition> queues = new ArrayList<>();
        queues.add(QueueDefinition.named("dlq"));
        for (int i = 0; i < QUEUES - 1; i++) {
            queues.add(i % 10 == 0
                    ? new QueueDefinition("q-" + i, Map.of("VisibilityTimeout", "45"), Map.of("team", "t"), "dlq", 3)
                    : QueueDefinition.named("q-" + i));
        }
        return queues;
    }

    private ServerConfig config(int port, List<QueueDefinition> queues) {
        return ServerConfig.defaults().withPort(port).withDataDir(dir.resolve("data")).withQueues(queues);
    }

    @Test
    void theFirstAnswerComesWhenEveryConfiguredQueueExists() throws Exception {
        int port = freePort();
        Prober prober = new Prober(port, "q-" + (QUEUES - 2));
        prober.start();
        try (HikyakuServer server = HikyakuServer.start(config(port, manyQueues()))) {
            prober.finish();
            assertThat(prober.refused.get()).as("the prober knocked while the queues were created").isPositive();
            assertThat(prober.answers).hasSize(1);
            assertThat(prober.answers.get(0)).startsWith("200 200 ").contains("/000000000000/q-" + (QUEUES - 2));
        }
    }

    @Test
    void aBadQueueAtTheEndOfTheFileStopsTheStartBeforeThePortEverAnswered() throws Exception {
        int port = freePort();
        List<QueueDefinition> queues = manyQueues();
        queues.add(new QueueDefinition("zz-bad", Map.of("VisibilityTimeout", "-1"), Map.of(), null, null));
        Prober prober = new Prober(port, "zz-bad");
        prober.start();
        assertThatThrownBy(() -> HikyakuServer.start(config(port, queues)))
                .hasMessageContaining("queue zz-bad").hasMessageContaining("InvalidAttributeValue");
        prober.stop.set(true);
        prober.join(10_000);
        assertThat(prober.connected.get()).as("connections the server accepted").isZero();
        assertThat(prober.answers).isEmpty();
        try (HikyakuServer again = HikyakuServer.start(config(0, List.of()))) {
            assertThat(again.port()).isPositive(); // the failed start released the store
        }
    }
}
