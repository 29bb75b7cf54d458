package io.hikyaku.sns;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.hikyaku.api.CallContext;
import io.hikyaku.api.SqsService;
import io.hikyaku.api.SqsServices;
import io.hikyaku.engine.store.MemoryStore;
import io.hikyaku.protocol.ApiRequest;
import io.hikyaku.protocol.HttpRequestData;
import io.hikyaku.protocol.HttpResponseData;
import io.hikyaku.protocol.WireProtocol;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Fan-out cost in-process (no JUnit, no network): one standard topic with {@code queues} sqs subscriptions (envelope,
 * signed), Publish through SnsApi from {@code threads} threads for {@code seconds}, queues purged as it runs.
 * Prints publishes/s, deliveries/s and the process's CPU time per delivery (one process: the caller is in it too).
 * Run: {@code java -cp <sns test classpath> io.hikyaku.sns.FanoutBench [queues threads seconds]}.
 */
public final class FanoutBench {

    private static final String ACCOUNT = "000000000000";
    private static final ObjectMapper JSON = new ObjectMapper();

    public static void main(String[] args) throws Exception {
        int queues = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        int threads = args.length > 1 ? Integer.parseInt(args[1]) : 2;
        int seconds = args.length > 2 ? Integer.parseInt(args[2]) : 10;
        SqsService sqs = SqsServices.create(new MemoryStore(), Clock.systemUTC());
        SnsApi api = SnsApi.create(SnsTopics.open(SnsJournal.memory()), "us-east-1", new SnsPublisher(sqs, "us-east-1"));
        String topic = field(call(api, "Action", "CreateTopic", "Name", "bench"), "TopicArn");
        for (int q = 0; q < queues; q++) {
            sqs(sqs, "CreateQueue", "QueueName", "fan" + q);
            call(api, "Action", "Subscribe", "TopicArn", topic, "Protocol", "sqs",
                    "Endpoint", "arn:aws:sqs:us-east-1:" + ACCOUNT + ":fan" + q);
        }
        run(api, sqs, topic, queues, threads, 3, false); // warm-up
        run(api, sqs, topic, queues, threads, seconds, true);
        sqs.close();
        System.exit(0);
    }

    private static void run(SnsApi api, SqsService sqs, String topic, int queues, int threads, int seconds, boolean print)
            throws InterruptedException {
        AtomicLong published = new AtomicLong();
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        Thread[] workers = new Thread[threads];
        for (int i = 0; i < threads; i++) {
            workers[i] = new Thread(() -> {
                int n = 0;
                while (System.nanoTime() < end) {
                    call(api, "Action", "Publish", "TopicArn", topic, "Message", "{\"order\":" + (n++) + ",\"item\":\"bench\"}",
                            "MessageAttributes.entry.1.Name", "kind", "MessageAttributes.entry.1.Value.DataType", "String",
                            "MessageAttributes.entry.1.Value.StringValue", "order");
                    published.incrementAndGet();
                }
            });
        }
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        long cpuBefore = os.getProcessCpuTime();
        long start = System.nanoTime();
        for (Thread t : workers) {
            t.start();
        }
        while (System.nanoTime() < end) { // keep memory flat: empty the queues as they fill
            Thread.sleep(1_000);
            for (int q = 0; q < queues; q++) {
                try {
                    sqs(sqs, "PurgeQueue", "QueueUrl", "http://127.0.0.1:9324/" + ACCOUNT + "/fan" + q);
                } catch (RuntimeException purgeTooSoon) {
                    // PurgeQueue allows one purge a minute: the messages stay, memory grows a little
                }
            }
        }
        for (Thread t : workers) {
            t.join();
        }
        double elapsed = (System.nanoTime() - start) / 1e9;
        double cpuMicros = (os.getProcessCpuTime() - cpuBefore) / 1e3; // the whole process: client side and server side
        if (print) {
            System.out.printf("queues=%d threads=%d seconds=%.1f publishes/s=%.0f deliveries/s=%.0f cpu-us/delivery=%.1f%n",
                    queues, threads, elapsed, published.get() / elapsed, published.get() * queues / elapsed,
                    cpuMicros / Math.max(1, published.get() * queues));
        }
    }

    private static String call(SnsApi api, String... pairs) {
        StringBuilder body = new StringBuilder("Version=2010-03-31");
        for (int i = 0; i < pairs.length; i += 2) {
            body.append('&').append(URLEncoder.encode(pairs[i], StandardCharsets.UTF_8)).append('=')
                    .append(URLEncoder.encode(pairs[i + 1], StandardCharsets.UTF_8));
        }
        HttpResponseData r = api.handle(new HttpRequestData("POST", "/", "", Map.of("host", "127.0.0.1:9324"),
                body.toString().getBytes(StandardCharsets.UTF_8)), ACCOUNT).join();
        String text = new String(r.body(), StandardCharsets.UTF_8);
        if (r.status() != 200) {
            throw new IllegalStateException(text);
        }
        return text;
    }

    private static void sqs(SqsService sqs, String action, String key, String value) {
        CompletableFuture<?> f = sqs.invoke(new CallContext(ACCOUNT, "us-east-1", "http://127.0.0.1:9324", null, "bench"),
                new ApiRequest(action, JSON.createObjectNode().put(key, value), WireProtocol.JSON, true, "/"));
        f.join();
    }

    private static String field(String xml, String element) {
        Matcher m = Pattern.compile("<" + element + ">([^<]*)</" + element + ">").matcher(xml);
        if (!m.find()) {
            throw new IllegalStateException(xml);
        }
        return m.group(1);
    }
}
