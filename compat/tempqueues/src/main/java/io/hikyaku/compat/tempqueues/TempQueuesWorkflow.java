package io.hikyaku.compat.tempqueues;

import static io.hikyaku.compat.tempqueues.Check.equal;
import static io.hikyaku.compat.tempqueues.Check.isTrue;
import static io.hikyaku.compat.tempqueues.Check.step;

import com.amazonaws.services.sqs.AmazonSQSRequester;
import com.amazonaws.services.sqs.AmazonSQSRequesterClientBuilder;
import com.amazonaws.services.sqs.AmazonSQSResponder;
import com.amazonaws.services.sqs.AmazonSQSResponderClientBuilder;
import com.amazonaws.services.sqs.MessageContent;
import com.amazonaws.services.sqs.util.SQSMessageConsumer;
import com.amazonaws.services.sqs.util.SQSMessageConsumerBuilder;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.SendMessageRequest;

/**
 * Amazon SQS Java Temporary Queues Client against an SQS endpoint: request/response over virtual queues
 * multiplexed on one host queue, the idle-queue sweeper deleting an abandoned host queue, and the host
 * queue deleted on shutdown. The only change from AWS: the library is handed an SqsClient with endpointOverride.
 */
public final class TempQueuesWorkflow {
    // Tag names the library writes on its host queues (see its AmazonSQSIdleQueueDeletingClient).
    private static final String RETENTION_TAG = "__IdleQueueRetentionPeriodSeconds";
    private static final String HEARTBEAT_TAG = "__AmazonSQSIdleQueueDeletingClient.LastHeartbeatTimestamp";

    public static void main(String[] args) {
        String endpoint = args.length > 0 ? args[0] : System.getenv("HIKYAKU_ENDPOINT");
        if (endpoint == null || endpoint.isBlank()) {
            System.err.println("usage: TempQueuesWorkflow ENDPOINT (or set HIKYAKU_ENDPOINT)");
            System.exit(2);
        }
        // The library logs each sweep at INFO through commons-logging (JUL): keep warnings only.
        java.util.logging.Logger.getLogger("com.amazonaws.services.sqs").setLevel(java.util.logging.Level.WARNING);
        try {
            run(endpoint);
            System.out.println("OK tempqueues workflow passed");
            System.exit(0);
        } catch (Throwable failure) {
            System.out.println("FAILED: " + failure);
            failure.printStackTrace(System.out);
            System.exit(1);
        }
    }

    /** The keys from the environment, as an application on AWS would have them (compat/run.sh sets them). */
    static AwsBasicCredentials credentials() {
        return AwsBasicCredentials.create(envOr("AWS_ACCESS_KEY_ID", "test"), envOr("AWS_SECRET_ACCESS_KEY", "test"));
    }

    private static String envOr(String name, String fallback) {
        String v = System.getenv(name);
        return v == null || v.isBlank() ? fallback : v;
    }

    private static void run(String endpoint) throws Exception {
        SqsClient sqs = SqsClient.builder()
                .endpointOverride(URI.create(endpoint))
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(credentials()))
                .build();
        String suffix = Long.toString(System.currentTimeMillis() % 10_000_000);
        String prefix = "tq" + suffix;
        String serviceUrl = sqs.createQueue(r -> r.queueName("svc-" + suffix)).queueUrl();

        step("an abandoned host queue, as a crashed requester leaves behind (retention 1 s, stale heartbeat)");
        String abandonedUrl = sqs.createQueue(r -> r.queueName(prefix + "-abandoned")).queueUrl();
        sqs.tagQueue(r -> r.queueUrl(abandonedUrl).tags(Map.of(RETENTION_TAG, "1",
                HEARTBEAT_TAG, Long.toString(System.currentTimeMillis() - 3_600_000))));

        step("responder: consume the service queue and answer each request on its virtual response queue");
        AmazonSQSResponder responder = AmazonSQSResponderClientBuilder.standard().withAmazonSQS(sqs).build();
        AtomicInteger served = new AtomicInteger();
        SQSMessageConsumer consumer = SQSMessageConsumerBuilder.standard()
                .withAmazonSQS(sqs)
                .withQueueUrl(serviceUrl)
                .withMaxWaitTimeSeconds(2)
                .withConsumer(message -> {
                    MessageContent request = MessageContent.fromMessage(message);
                    isTrue(responder.isResponseMessageRequested(request), "request carries ResponseQueueUrl");
                    // Counted before replying: the requester may see the reply (and read the count)
                    // before this thread runs again after sendResponseMessage returns.
                    served.incrementAndGet();
                    responder.sendResponseMessage(request, new MessageContent("echo:" + message.body()));
                })
                .withExceptionHandler(e -> System.out.println("   consumer error: " + e))
                .build();
        consumer.start();

        step("requester with a 1 s idle-queue sweeping period");
        AmazonSQSRequester requester = AmazonSQSRequesterClientBuilder.standard()
                .withAmazonSQS(sqs)
                .withInternalQueuePrefix(prefix)
                .withIdleQueueSweepingPeriod(1, TimeUnit.SECONDS)
                .build();
        try {
            step("request/response exchanges, sequential and concurrent");
            for (int i = 1; i <= 3; i++) {
                Message reply = requester.sendMessageAndGetResponse(request(serviceUrl, "ping-" + i), 15, TimeUnit.SECONDS);
                equal(reply.body(), "echo:ping-" + i, "reply " + i);
            }
            List<CompletableFuture<Message>> pending = new ArrayList<>();
            for (int i = 4; i <= 8; i++) {
                pending.add(requester.sendMessageAndGetResponseAsync(request(serviceUrl, "ping-" + i), 15, TimeUnit.SECONDS));
            }
            for (int i = 4; i <= 8; i++) {
                equal(pending.get(i - 4).get(20, TimeUnit.SECONDS).body(), "echo:ping-" + i, "async reply " + i);
            }
            equal(served.get(), 8, "requests served");

            step("the virtual queues share real host queues: 8 exchanges did not make 8 queues");
            List<String> live = queuesWithPrefix(sqs, prefix);
            System.out.println("   queues with prefix " + prefix + ": " + live);
            List<String> hosts = live.stream().filter(u -> isHostQueue(u, prefix) && !u.equals(abandonedUrl)).toList();
            isTrue(!hosts.isEmpty() && hosts.size() <= 2, "one host queue (at most 2) for the requester: " + hosts);
            String hostUrl = hosts.get(0);
            Map<String, String> hostTags = sqs.listQueueTags(r -> r.queueUrl(hostUrl)).tags();
            isTrue(hostTags.containsKey(RETENTION_TAG), "host queue carries the retention tag: " + hostTags);

            step("the idle-queue sweeper deletes the abandoned host queue");
            awaitTrue(() -> !queuesWithPrefix(sqs, prefix).contains(abandonedUrl), 30,
                    "abandoned queue " + abandonedUrl + " swept; still there: " + queuesWithPrefix(sqs, prefix));
            isTrue(queuesWithPrefix(sqs, prefix).containsAll(hosts), "the live host queue survives the sweep");
        } finally {
            step("shutdown deletes the requester's host queue");
            // Each side waits out its own long polls (up to 20 s), so both shut down in parallel.
            CompletableFuture<Void> responderSide = CompletableFuture.runAsync(() -> {
                consumer.terminate();
                responder.shutdown();
            });
            requester.shutdown();
            responderSide.get(60, TimeUnit.SECONDS);
            step("requester and responder shut down");
        }
        awaitTrue(() -> queuesWithPrefix(sqs, prefix).stream().noneMatch(u -> isHostQueue(u, prefix)), 15,
                "host queues deleted after shutdown; left: " + queuesWithPrefix(sqs, prefix));
        System.out.println("   queues with prefix after shutdown: " + queuesWithPrefix(sqs, prefix));
        for (String url : queuesWithPrefix(sqs, prefix)) {
            sqs.deleteQueue(r -> r.queueUrl(url));
        }
        sqs.deleteQueue(r -> r.queueUrl(serviceUrl));
        sqs.close();
    }

    /** Host queues are named prefix + a UUID; the sweeper's own queues are prefix and prefix_DLQ. */
    private static boolean isHostQueue(String url, String prefix) {
        String name = url.substring(url.lastIndexOf('/') + 1);
        return name.startsWith(prefix) && !name.equals(prefix) && !name.equals(prefix + "_DLQ");
    }

    private static SendMessageRequest request(String serviceUrl, String body) {
        return SendMessageRequest.builder().queueUrl(serviceUrl).messageBody(body).build();
    }

    private static List<String> queuesWithPrefix(SqsClient sqs, String prefix) {
        return sqs.listQueues(r -> r.queueNamePrefix(prefix)).queueUrls();
    }

    private static void awaitTrue(BooleanSupplier condition, int seconds, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < deadline) {
            if (condition.getAsBoolean()) {
                return;
            }
            Thread.sleep(250);
        }
        throw new AssertionError("timed out after " + seconds + " s: " + what);
    }
}
