package io.hikyaku.compat.spring;

import io.awspring.cloud.sqs.operations.SqsTemplate;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.messaging.Message;
import org.springframework.messaging.support.MessageBuilder;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sqs.SqsAsyncClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueDoesNotExistException;

/**
 * Spring Cloud AWS SQS against an SQS endpoint: SqsTemplate sends (single, batch, FIFO), @SqsListener consumes and
 * acknowledges, and a message failed on purpose reaches the DLQ after maxReceiveCount receives. The only change
 * from AWS is the property spring.cloud.aws.sqs.endpoint. Exit code 0 = every assertion held.
 */
@SpringBootApplication
public class SpringWorkflow {
    private static final long START = System.nanoTime();

    public static void main(String[] args) {
        String endpoint = args.length > 0 ? args[0] : System.getenv("HIKYAKU_ENDPOINT");
        if (endpoint == null || endpoint.isBlank()) {
            System.err.println("usage: SpringWorkflow ENDPOINT (or set HIKYAKU_ENDPOINT)");
            System.exit(2);
        }
        int code;
        try {
            run(endpoint);
            System.out.println("OK spring workflow passed");
            code = 0;
        } catch (Throwable failure) {
            System.out.println("FAILED: " + failure);
            failure.printStackTrace(System.out);
            code = 1;
        }
        System.exit(code);
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
        Queues queues = Queues.named(Long.toString(System.currentTimeMillis() % 10_000_000));
        step("provision queues " + queues);
        try (SqsAsyncClient admin = SqsAsyncClient.builder().endpointOverride(URI.create(endpoint))
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(credentials()))
                .build()) {
            queues.provision(admin);

            step("start the Spring Boot app");
            SpringApplication app = new SpringApplication(SpringWorkflow.class);
            app.setWebApplicationType(WebApplicationType.NONE);
            app.setDefaultProperties(Map.of(
                    "spring.cloud.aws.sqs.endpoint", endpoint,
                    "spring.cloud.aws.region.static", "us-east-1",
                    "spring.cloud.aws.credentials.access-key", credentials().accessKeyId(),
                    "spring.cloud.aws.credentials.secret-key", credentials().secretAccessKey(),
                    "compat.queues.orders", queues.orders(),
                    "compat.queues.dlq", queues.dlq(),
                    "compat.queues.fifo", queues.fifo()));
            try (ConfigurableApplicationContext context = app.run()) {
                exercise(context, queues);
                step("stop the app");
            }
            step("delete queues");
            queues.delete(admin);
        }
    }

    private static void exercise(ConfigurableApplicationContext context, Queues queues) throws Exception {
        SqsTemplate template = context.getBean(SqsTemplate.class);
        SqsAsyncClient sqs = context.getBean(SqsAsyncClient.class);
        Listeners listeners = context.getBean(Listeners.class);

        step("SqsTemplate: one message with headers, a batch of two, and the poison message");
        template.send(to -> to.queue(queues.orders()).payload("order-1")
                .header("customer", "alice").header("quantity", 3));
        List<Message<String>> batch = List.of(
                MessageBuilder.withPayload("order-2").setHeader("customer", "bob").build(),
                MessageBuilder.withPayload("order-3").setHeader("customer", "carol").build());
        template.sendMany(queues.orders(), batch);
        template.send(queues.orders(), Listeners.POISON);

        step("SqsTemplate: three FIFO messages in one group");
        for (String body : List.of("step-1", "step-2", "step-3")) {
            template.send(to -> to.queue(queues.fifo()).payload(body).messageGroupId("saga-7"));
        }

        step("listeners consume and acknowledge");
        await(listeners.ordersDone, "3 orders consumed");
        Message<String> first = listeners.orders.get("order-1");
        check("alice".equals(first.getHeaders().get("customer")), "String header round trip: " + first.getHeaders());
        Object quantity = first.getHeaders().get("quantity");
        check(quantity != null && "3".equals(quantity.toString()), "Number header round trip: " + quantity);
        check("bob".equals(listeners.orders.get("order-2").getHeaders().get("customer")), "batch message header");
        await(listeners.stepsDone, "3 FIFO messages consumed");
        check(listeners.steps.equals(List.of("step-1", "step-2", "step-3")), "FIFO order: " + listeners.steps);

        step("the poison message fails twice and lands in the DLQ");
        await(listeners.deadLetterSeen, "poison message consumed from the DLQ");
        check(listeners.deadLetters.equals(List.of(Listeners.POISON)), "DLQ contents: " + listeners.deadLetters);
        check(listeners.poisonAttempts.get() == 2, "poison attempts = maxReceiveCount (2): " + listeners.poisonAttempts);

        step("acknowledged messages are deleted: the queues drain");
        for (String queue : List.of(queues.orders(), queues.dlq(), queues.fifo())) {
            awaitEmpty(sqs, queue);
        }

        step("a missing queue surfaces as QueueDoesNotExistException");
        try {
            sqs.getQueueUrl(r -> r.queueName("spring-missing")).join();
            throw new AssertionError("GetQueueUrl(missing) should fail");
        } catch (CompletionException e) {
            check(e.getCause() instanceof QueueDoesNotExistException, "typed error, got " + e.getCause());
            check("AWS.SimpleQueueService.NonExistentQueue".equals(
                    ((QueueDoesNotExistException) e.getCause()).awsErrorDetails().errorCode()), "error code " + e.getCause());
        }
    }

    private static void awaitEmpty(SqsAsyncClient sqs, String queue) throws InterruptedException {
        String url = sqs.getQueueUrl(r -> r.queueName(queue)).join().queueUrl();
        Map<QueueAttributeName, String> counts = Map.of();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            counts = sqs.getQueueAttributes(r -> r.queueUrl(url).attributeNames(
                    QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES,
                    QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE)).join().attributes();
            if (counts.values().stream().allMatch("0"::equals)) {
                return;
            }
            Thread.sleep(250);
        }
        throw new AssertionError(queue + " did not drain: " + counts);
    }

    private static void await(CountDownLatch latch, String what) throws InterruptedException {
        check(latch.await(20, TimeUnit.SECONDS), "timed out waiting for: " + what);
    }

    private static void check(boolean condition, String what) {
        if (!condition) {
            throw new AssertionError(what);
        }
    }

    private static void step(String name) {
        System.out.printf("-- [%5.1fs] %s%n", (System.nanoTime() - START) / 1e9, name);
    }
}
