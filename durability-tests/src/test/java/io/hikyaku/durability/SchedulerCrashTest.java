package io.hikyaku.durability;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * Scheduler fires are exactly once across kill -9: hundreds of {@code at()} schedules come due in bursts (every
 * whole second for 15 s, 60 a second, into a standard and a content-deduplicated FIFO queue) while the real server is killed
 * with SIGKILL again and again, each time a little after a burst began (so inside a run of sends and their
 * records), and restarted on its data. Afterwards every schedule's message is in its queue exactly once: none
 * lost (a fire due while the server was down is sent after the restart), none twice (a fire sent before the kill
 * but not yet recorded by the Scheduler is sent again after it, and the engine's send-once record refuses it).
 * The repeats the engine refused are read from {@code /metrics} before each kill and printed.
 */
class SchedulerCrashTest {

    private static final int SECONDS = 15;
    private static final int PER_SECOND = 60;
    private static final String ROLE = "arn:aws:iam::000000000000:role/scheduler";
    private static final DateTimeFormatter AT = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss").withZone(ZoneOffset.UTC);

    @TempDir
    Path dir;

    @Test
    void everyDueFireIsDeliveredExactlyOnceAcrossRepeatedKillNine() throws Exception {
        Path jar = ServerProcess.builtJar();
        Path data = dir.resolve("data");
        Path log = dir.resolve("server.log");
        Random random = new Random(39);
        ServerProcess server = ServerProcess.start(jar, data, log, 60);
        String standardArn = "arn:aws:sqs:us-east-1:000000000000:sched-crash";
        String fifoArn = "arn:aws:sqs:us-east-1:000000000000:sched-crash.fifo";
        Set<String> expected = new HashSet<>();
        long base;
        try (SqsClient sqs = Clients.sqs(server.endpoint())) {
            sqs.createQueue(b -> b.queueName("sched-crash"));
            sqs.createQueue(b -> b.queueName("sched-crash.fifo").attributesWithStrings(
                    Map.of("FifoQueue", "true", "ContentBasedDeduplication", "true")));
            base = (System.currentTimeMillis() / 1000 + 15) * 1000; // creating them all takes a few seconds
            for (int i = 0; i < SECONDS * PER_SECOND; i++) {
                long due = base + (i / PER_SECOND) * 1000L;
                boolean fifo = i % 3 == 0;
                String name = "s" + i;
                String target = "{\"Arn\":\"" + (fifo ? fifoArn : standardArn) + "\",\"RoleArn\":\"" + ROLE + "\","
                        + "\"Input\":\"<aws.scheduler.schedule-arn> <aws.scheduler.scheduled-time>\""
                        + (fifo ? ",\"SqsParameters\":{\"MessageGroupId\":\"g" + (i % 5) + "\"}" : "") + "}";
                int status = post(server.endpoint(), "/schedules/" + name, "{\"ScheduleExpression\":\"at("
                        + AT.format(Instant.ofEpochMilli(due)) + ")\",\"FlexibleTimeWindow\":{\"Mode\":\"OFF\"},\"Target\":" + target + "}");
                assertThat(status).as("CreateSchedule " + name).isEqualTo(200);
                expected.add((fifo ? "fifo " : "standard ") + "arn:aws:scheduler:us-east-1:000000000000:schedule/default/" + name
                        + " " + Instant.ofEpochMilli(due));
            }
        }
        long refusedRepeats = 0;
        int kills = 0;
        long end = base + SECONDS * 1000L;
        while (System.currentTimeMillis() < end) {
            // a little after the next whole second: inside the burst of sends that second's fires make
            long now = System.currentTimeMillis();
            long killAt = (now / 1000 + 1) * 1000 + 5 + random.nextInt(150);
            Thread.sleep(Math.max(0, killAt - now));
            refusedRepeats += refusedRepeats(server.endpoint());
            server.kill();
            kills++;
            server = ServerProcess.start(jar, data, log, 60);
        }
        Thread.sleep(3000); // the last fires, and a last restart's repeats
        refusedRepeats += refusedRepeats(server.endpoint());
        Map<String, Integer> delivered = new HashMap<>();
        try (SqsClient sqs = Clients.sqs(server.endpoint())) {
            for (String q : List.of("sched-crash", "sched-crash.fifo")) {
                String url = sqs.getQueueUrl(b -> b.queueName(q)).queueUrl();
                int empty = 0;
                while (empty < 3) {
                    List<Message> got = sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(10).visibilityTimeout(600)
                            .waitTimeSeconds(1)).messages();
                    empty = got.isEmpty() ? empty + 1 : 0;
                    for (Message m : got) {
                        delivered.merge((q.endsWith(".fifo") ? "fifo " : "standard ") + m.body(), 1, Integer::sum);
                        if (q.endsWith(".fifo")) { // a FIFO group delivers its next message once this one is gone
                            sqs.deleteMessage(b -> b.queueUrl(url).receiptHandle(m.receiptHandle()));
                        }
                    }
                }
            }
        } finally {
            server.close();
        }
        System.out.println("SchedulerCrashTest: " + expected.size() + " fires, " + kills + " kill -9, "
                + refusedRepeats + " repeats refused by the engine's send-once records");
        assertThat(kills).isGreaterThanOrEqualTo(2);
        assertThat(delivered.keySet()).isEqualTo(expected); // none lost, none unexpected
        assertThat(delivered.entrySet().stream().filter(e -> e.getValue() != 1).toList()).as("fires delivered more than once").isEmpty();
    }

    private static int post(URI endpoint, String path, String json) throws IOException {
        HttpURLConnection c = (HttpURLConnection) endpoint.resolve(path).toURL().openConnection();
        c.setRequestMethod("POST");
        c.setDoOutput(true);
        c.setConnectTimeout(2000);
        c.setReadTimeout(10_000);
        c.setRequestProperty("Content-Type", "application/json");
        c.getOutputStream().write(json.getBytes(StandardCharsets.UTF_8));
        try {
            return c.getResponseCode();
        } finally {
            c.disconnect();
        }
    }

    /** The sends refused as repeats since this server process started (its counter of deduplicated sends). */
    private static long refusedRepeats(URI endpoint) {
        try {
            HttpURLConnection c = (HttpURLConnection) endpoint.resolve("/metrics").toURL().openConnection();
            c.setConnectTimeout(1000);
            c.setReadTimeout(5000);
            try (var in = c.getInputStream()) {
                long sum = 0;
                for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                    if (line.startsWith("hikyaku_sqs_number_of_deduplicated_sent_messages_total")) {
                        sum += (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
                    }
                }
                return sum;
            } finally {
                c.disconnect();
            }
        } catch (IOException | NumberFormatException e) {
            return 0;
        }
    }
}
