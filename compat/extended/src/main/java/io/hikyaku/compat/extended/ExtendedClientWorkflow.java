package io.hikyaku.compat.extended;

import static io.hikyaku.compat.extended.Check.equal;
import static io.hikyaku.compat.extended.Check.isTrue;
import static io.hikyaku.compat.extended.Check.step;

import com.amazon.sqs.javamessaging.AmazonSQSExtendedClient;
import com.amazon.sqs.javamessaging.ExtendedClientConfiguration;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * Amazon SQS Extended Client Library (SDK v2) against an SQS endpoint plus an S3-compatible store: bodies
 * over the threshold go to S3 and SQS carries a pointer and the reserved size attribute; receive restores
 * the body, delete removes the object. The only changes from AWS: endpointOverride on both clients, and
 * path-style S3 addressing (what S3-compatible servers need).
 */
public final class ExtendedClientWorkflow {
    private static final String NEW_SIZE_ATTRIBUTE = "ExtendedPayloadSize";
    private static final String LEGACY_SIZE_ATTRIBUTE = "SQSLargePayloadSize";
    private static final String POINTER_CLASS = "software.amazon.payloadoffloading.PayloadS3Pointer";
    private static final String HANDLE_MARKER = "-..s3BucketName..-";

    public static void main(String[] args) {
        String endpoint = args.length > 0 ? args[0] : System.getenv("HIKYAKU_ENDPOINT");
        String s3Endpoint = args.length > 1 ? args[1] : System.getenv("S3_ENDPOINT");
        if (endpoint == null || endpoint.isBlank() || s3Endpoint == null || s3Endpoint.isBlank()) {
            System.err.println("usage: ExtendedClientWorkflow SQS_ENDPOINT S3_ENDPOINT (or HIKYAKU_ENDPOINT, S3_ENDPOINT)");
            System.exit(2);
        }
        try {
            run(endpoint, s3Endpoint);
            System.out.println("OK extended client workflow passed");
            System.exit(0);
        } catch (Throwable failure) {
            System.out.println("FAILED: " + failure);
            failure.printStackTrace(System.out);
            System.exit(1);
        }
    }

    private static void run(String endpoint, String s3Endpoint) {
        StaticCredentialsProvider credentials = StaticCredentialsProvider.create(AwsBasicCredentials.create(
                envOr("AWS_ACCESS_KEY_ID", "test"), envOr("AWS_SECRET_ACCESS_KEY", "test")));
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        String bucket = "hikyaku-extended-" + suffix;
        try (S3Client s3 = S3Client.builder().endpointOverride(URI.create(s3Endpoint)).region(Region.US_EAST_1)
                        .credentialsProvider(credentials).forcePathStyle(true).build();
                SqsClient sqs = SqsClient.builder().endpointOverride(URI.create(endpoint)).region(Region.US_EAST_1)
                        .credentialsProvider(credentials).build()) {
            step("S3: CreateBucket " + bucket);
            s3.createBucket(b -> b.bucket(bucket));
            String queueUrl = sqs.createQueue(b -> b.queueName("extended-" + suffix)).queueUrl();

            // New reserved name (ExtendedPayloadSize); the default 256 KiB threshold.
            SqsClient extended = new AmazonSQSExtendedClient(sqs, new ExtendedClientConfiguration()
                    .withPayloadSupportEnabled(s3, bucket).withLegacyReservedAttributeNameDisabled());
            largeRoundTrip(s3, sqs, extended, bucket, queueUrl);
            smallStaysInline(s3, sqs, extended, bucket, queueUrl);
            mixedBatch(s3, extended, bucket, queueUrl);

            step("legacy reserved name (the 2.x default) with alwaysThroughS3: a 9-byte body goes to S3 too");
            SqsClient legacy = new AmazonSQSExtendedClient(sqs, new ExtendedClientConfiguration()
                    .withPayloadSupportEnabled(s3, bucket).withAlwaysThroughS3(true));
            legacy.sendMessage(b -> b.queueUrl(queueUrl).messageBody("tiny body"));
            Message raw = receiveOne(sqs, queueUrl);
            equal(raw.messageAttributes().get(LEGACY_SIZE_ATTRIBUTE), number(9), "raw " + LEGACY_SIZE_ATTRIBUTE);
            isTrue(!raw.messageAttributes().containsKey(NEW_SIZE_ATTRIBUTE), "only the legacy name is sent");
            sqs.changeMessageVisibility(b -> b.queueUrl(queueUrl).receiptHandle(raw.receiptHandle()).visibilityTimeout(0));
            Message restored = receiveOne(legacy, queueUrl);
            equal(restored.body(), "tiny body", "body restored from S3");
            legacy.deleteMessage(b -> b.queueUrl(queueUrl).receiptHandle(restored.receiptHandle()));
            equal(objectKeys(s3, bucket), List.of(), "objects in S3 after the delete");
            expectEmpty(sqs, queueUrl);

            step("DeleteQueue, DeleteBucket");
            sqs.deleteQueue(b -> b.queueUrl(queueUrl));
            s3.deleteBucket(b -> b.bucket(bucket));
        }
    }

    /** A 3 MiB body: to S3 on send, pointer and size attribute on the wire, restored on receive, object deleted with the message. */
    private static void largeRoundTrip(S3Client s3, SqsClient sqs, SqsClient extended, String bucket, String queueUrl) {
        step("SendMessage of a 3 MiB body with a String attribute through the extended client");
        String body = payload(3 * 1024 * 1024, 'L');
        Map<String, MessageAttributeValue> userAttributes = Map.of("origin",
                MessageAttributeValue.builder().dataType("String").stringValue("compat").build());
        extended.sendMessage(b -> b.queueUrl(queueUrl).messageBody(body).messageAttributes(userAttributes));
        List<String> keys = objectKeys(s3, bucket);
        equal(keys.size(), 1, "objects in S3 after the send (" + keys + ")");
        String key = keys.get(0);
        equal(s3.headObject(b -> b.bucket(bucket).key(key)).contentLength(), (long) body.length(), "S3 object size");

        step("plain SqsClient receive: the pointer JSON and the reserved attribute " + NEW_SIZE_ATTRIBUTE);
        Message raw = receiveOne(sqs, queueUrl);
        equal(raw.body(), "[\"" + POINTER_CLASS + "\",{\"s3BucketName\":\"" + bucket + "\",\"s3Key\":\"" + key + "\"}]",
                "raw body (the pointer)");
        equal(raw.messageAttributes().get(NEW_SIZE_ATTRIBUTE), number(body.length()), "raw " + NEW_SIZE_ATTRIBUTE);
        equal(raw.messageAttributes().get("origin"), userAttributes.get("origin"), "raw user attribute");
        isTrue(!raw.messageAttributes().containsKey(LEGACY_SIZE_ATTRIBUTE), "legacy name not sent when disabled");
        isTrue(!raw.receiptHandle().contains(HANDLE_MARKER), "the server's handle is a plain one");
        sqs.changeMessageVisibility(b -> b.queueUrl(queueUrl).receiptHandle(raw.receiptHandle()).visibilityTimeout(0));

        step("extended receive: body restored from S3, reserved attribute removed, handle carries the pointer");
        Message first = receiveOne(extended, queueUrl);
        equal(first.body(), body, "restored body (3 MiB)");
        equal(first.messageAttributes(), userAttributes, "attributes seen by the application");
        isTrue(first.receiptHandle().startsWith(HANDLE_MARKER + bucket + HANDLE_MARKER), "extended handle: " + first.receiptHandle());

        step("ChangeMessageVisibility 0 with the extended handle (the library strips it), receive again");
        extended.changeMessageVisibility(b -> b.queueUrl(queueUrl).receiptHandle(first.receiptHandle()).visibilityTimeout(0));
        Message second = receiveOne(extended, queueUrl);
        equal(second.body(), body, "restored body on the third receive");
        equal(second.attributes().get(MessageSystemAttributeName.APPROXIMATE_RECEIVE_COUNT), "3", "ApproximateReceiveCount");

        step("DeleteMessage with the extended handle: message and S3 object gone");
        extended.deleteMessage(b -> b.queueUrl(queueUrl).receiptHandle(second.receiptHandle()));
        equal(objectKeys(s3, bucket), List.of(), "objects in S3 after the delete");
        expectEmpty(sqs, queueUrl);
    }

    private static void smallStaysInline(S3Client s3, SqsClient sqs, SqsClient extended, String bucket, String queueUrl) {
        step("a 1 KiB body stays inline: no S3 object, no reserved attribute");
        String body = payload(1024, 's');
        extended.sendMessage(b -> b.queueUrl(queueUrl).messageBody(body));
        equal(objectKeys(s3, bucket), List.of(), "objects in S3 after a small send");
        Message raw = receiveOne(sqs, queueUrl);
        equal(raw.body(), body, "raw body of a small message");
        equal(raw.messageAttributes(), Map.of(), "raw attributes of a small message");
        extended.deleteMessage(b -> b.queueUrl(queueUrl).receiptHandle(raw.receiptHandle()));
        expectEmpty(sqs, queueUrl);
    }

    private static void mixedBatch(S3Client s3, SqsClient extended, String bucket, String queueUrl) {
        step("SendMessageBatch of a small and a 300 KiB body: one S3 object; both restored; DeleteMessageBatch removes it");
        String small = "small body";
        String large = payload(300 * 1024, 'B');
        var sent = extended.sendMessageBatch(b -> b.queueUrl(queueUrl).entries(
                e -> e.id("small").messageBody(small), e -> e.id("large").messageBody(large)));
        equal(sent.failed(), List.of(), "batch failures");
        equal(objectKeys(s3, bucket).size(), 1, "objects in S3 after the batch");
        Map<String, Message> byBody = new HashMap<>();
        for (int attempt = 0; attempt < 5 && byBody.size() < 2; attempt++) {
            for (Message m : extended.receiveMessage(b -> b.queueUrl(queueUrl).maxNumberOfMessages(10).waitTimeSeconds(1)).messages()) {
                byBody.put(m.body(), m);
            }
        }
        equal(byBody.keySet(), java.util.Set.of(small, large), "bodies received from the batch");
        List<String> handles = new ArrayList<>();
        byBody.values().forEach(m -> handles.add(m.receiptHandle()));
        var deleted = extended.deleteMessageBatch(b -> b.queueUrl(queueUrl).entries(
                e -> e.id("a").receiptHandle(handles.get(0)), e -> e.id("b").receiptHandle(handles.get(1))));
        equal(deleted.failed(), List.of(), "delete batch failures");
        equal(objectKeys(s3, bucket), List.of(), "objects in S3 after DeleteMessageBatch");
    }

    private static Message receiveOne(SqsClient client, String queueUrl) {
        List<Message> messages = client.receiveMessage(b -> b.queueUrl(queueUrl).waitTimeSeconds(5)
                .messageAttributeNames("All").attributeNamesWithStrings("All")).messages();
        equal(messages.size(), 1, "messages received");
        return messages.get(0);
    }

    private static void expectEmpty(SqsClient sqs, String queueUrl) {
        Map<QueueAttributeName, String> counts = sqs.getQueueAttributes(b -> b.queueUrl(queueUrl).attributeNames(
                QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES, QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE))
                .attributes();
        equal(counts.get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES), "0", "ApproximateNumberOfMessages");
        equal(counts.get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE), "0", "ApproximateNumberOfMessagesNotVisible");
    }

    private static List<String> objectKeys(S3Client s3, String bucket) {
        return s3.listObjectsV2(b -> b.bucket(bucket)).contents().stream().map(S3Object::key).toList();
    }

    private static MessageAttributeValue number(int value) {
        return MessageAttributeValue.builder().dataType("Number").stringValue(Integer.toString(value)).build();
    }

    /** ASCII, so characters and bytes count the same (the library's size is in bytes). */
    private static String payload(int bytes, char fill) {
        String s = String.valueOf(fill).repeat(bytes);
        isTrue(s.getBytes(StandardCharsets.UTF_8).length == bytes, "payload is ASCII");
        return s;
    }

    private static String envOr(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }
}
