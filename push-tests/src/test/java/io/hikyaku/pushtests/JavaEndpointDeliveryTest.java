package io.hikyaku.pushtests;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import io.hikyaku.push.FunctionConfig;
import io.hikyaku.pushtests.support.JavaEndpoint;
import io.hikyaku.pushtests.support.PushTestBase;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeNameForSends;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeValue;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.SendMessageResponse;

/**
 * Push delivery end to end against a Java endpoint that parses the event with aws-lambda-java-events:
 * the event shape, success, whole-batch and partial failures, timeouts, poison messages to the DLQ,
 * FIFO order, filters, scaling and signatures. Visibility timeouts and the delivery backoff run on
 * the server's fake clock, which the tests advance instead of waiting.
 */
class JavaEndpointDeliveryTest extends PushTestBase {

    private static final Duration WAIT = Duration.ofSeconds(20);
    /** Past a 30 s visibility timeout and any backoff pause. */
    private static final Duration PAST_VISIBILITY = Duration.ofSeconds(31);
    private JavaEndpoint java;
    private JavaEndpoint signed;

    @Override
    protected List<FunctionConfig> functions() throws Exception {
        java = new JavaEndpoint(null);
        signed = new JavaEndpoint("s3cret");
        closeables.add(java);
        closeables.add(signed);
        return List.of(new FunctionConfig("java-fn", java.url(), 5, Map.of("X-Api-Key", "k1"), null),
                new FunctionConfig("java-slow", java.url(), 1, Map.of(), null),
                new FunctionConfig("java-signed", signed.url(), 5, Map.of(), "s3cret"));
    }

    private String mapping(String function, String queue, String extra) throws Exception {
        return createMapping("{\"FunctionName\":\"" + function + "\",\"EventSourceArn\":\"" + arn(queue) + "\"" + extra + "}");
    }

    @Test
    void deliversLambdasSqsEventAndDeletesTheBatch() throws Exception {
        java.handler(e -> new SQSBatchResponse(List.of()));
        String name = uniqueName("shape");
        String url = createQueue(name, Map.of());
        SendMessageResponse sent = sqs.sendMessage(b -> b.queueUrl(url).messageBody("{\"order\":1}")
                .messageAttributes(Map.of(
                        "kind", MessageAttributeValue.builder().dataType("String").stringValue("order").build(),
                        "blob", MessageAttributeValue.builder().dataType("Binary").binaryValue(SdkBytes.fromUtf8String("bytes")).build()))
                .messageSystemAttributes(Map.of(MessageSystemAttributeNameForSends.AWS_TRACE_HEADER,
                        MessageSystemAttributeValue.builder().dataType("String").stringValue("Root=1-5759e988-bd862e3fe1be46a994272793").build())));
        String uuid = mapping("java-fn", name, "");
        try {
            await("the event", WAIT, () -> java.recordsFor(arn(name)).size() == 1);
            SQSEvent.SQSMessage m = java.recordsFor(arn(name)).get(0);
            assertThat(m.getMessageId()).isEqualTo(sent.messageId());
            assertThat(m.getBody()).isEqualTo("{\"order\":1}");
            assertThat(m.getMd5OfBody()).isEqualTo(sent.md5OfMessageBody());
            assertThat(m.getMd5OfMessageAttributes()).isEqualTo(sent.md5OfMessageAttributes());
            assertThat(m.getEventSource()).isEqualTo("aws:sqs");
            assertThat(m.getEventSourceArn()).isEqualTo(arn(name));
            assertThat(m.getAwsRegion()).isEqualTo(REGION);
            assertThat(m.getReceiptHandle()).isNotEmpty();
            assertThat(m.getAttributes()).containsEntry("ApproximateReceiveCount", "1").containsEntry("SenderId", ACCOUNT)
                    .containsEntry("AWSTraceHeader", "Root=1-5759e988-bd862e3fe1be46a994272793")
                    .containsKeys("SentTimestamp", "ApproximateFirstReceiveTimestamp");
            assertThat(m.getMessageAttributes().get("kind").getStringValue()).isEqualTo("order");
            assertThat(m.getMessageAttributes().get("kind").getDataType()).isEqualTo("String");
            assertThat(m.getMessageAttributes().get("kind").getStringListValues()).isEmpty();
            ByteBuffer blob = m.getMessageAttributes().get("blob").getBinaryValue();
            assertThat(StandardCharsets.UTF_8.decode(blob).toString()).isEqualTo("bytes");
            await("the batch deleted", WAIT, () -> depth(url) == 0);
            assertThat(metrics(uuid).invocations()).isEqualTo(1);
            assertThat(metrics(uuid).messagesDeleted()).isEqualTo(1);
            assertThat(metrics(uuid).errors()).isZero();
        } finally {
            deleteMapping(uuid);
        }
    }

    @Test
    void aFailedInvocationDeletesNothingAndTheBatchReturnsAfterTheVisibilityTimeout() throws Exception {
        java.handler(e -> {
            if (e.getRecords().stream().anyMatch(m -> m.getAttributes().get("ApproximateReceiveCount").equals("1"))) {
                throw new IllegalStateException("first attempt fails");
            }
            return null;
        });
        String name = uniqueName("whole");
        String url = createQueue(name, Map.of());
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("a"));
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("b"));
        String uuid = mapping("java-fn", name, "");
        try {
            await("the first attempt", WAIT, () -> metrics(uuid).errors() == 1);
            assertThat(depth(url)).isEqualTo(2); // nothing deleted
            advance(PAST_VISIBILITY);
            await("the retry deletes both", WAIT, () -> depth(url) == 0);
            List<SQSEvent.SQSMessage> records = java.recordsFor(arn(name));
            assertThat(records.stream().filter(r -> r.getAttributes().get("ApproximateReceiveCount").equals("2")).count()).isEqualTo(2);
        } finally {
            deleteMapping(uuid);
        }
    }

    @Test
    void reportBatchItemFailuresRetriesOnlyTheFailedItems() throws Exception {
        Set<String> failedOnce = ConcurrentHashMap.newKeySet();
        java.handler(e -> {
            List<SQSBatchResponse.BatchItemFailure> failures = new ArrayList<>();
            for (SQSEvent.SQSMessage m : e.getRecords()) {
                if (m.getBody().equals("b") && failedOnce.add(m.getMessageId())) {
                    failures.add(new SQSBatchResponse.BatchItemFailure(m.getMessageId()));
                }
            }
            return new SQSBatchResponse(failures);
        });
        String name = uniqueName("partial");
        String url = createQueue(name, Map.of());
        for (String body : List.of("a", "b", "c")) {
            sqs.sendMessage(b -> b.queueUrl(url).messageBody(body));
        }
        String uuid = mapping("java-fn", name, ",\"FunctionResponseTypes\":[\"ReportBatchItemFailures\"]");
        try {
            await("a and c deleted", WAIT, () -> metrics(uuid).messagesDeleted() == 2);
            assertThat(depth(url)).isEqualTo(1);
            assertThat(metrics(uuid).itemFailures()).isEqualTo(1);
            advance(PAST_VISIBILITY);
            await("b retried and deleted", WAIT, () -> depth(url) == 0);
            List<SQSEvent.SQSMessage> records = java.recordsFor(arn(name));
            assertThat(records).extracting(SQSEvent.SQSMessage::getBody).containsExactlyInAnyOrder("a", "b", "c", "b");
            assertThat(records.get(records.size() - 1).getAttributes().get("ApproximateReceiveCount")).isEqualTo("2");
        } finally {
            deleteMapping(uuid);
        }
    }

    @Test
    void anUnknownItemIdentifierFailsTheWholeBatchAsLambdaDoes() throws Exception {
        Set<String> answered = ConcurrentHashMap.newKeySet();
        java.handler(e -> answered.add("once")
                ? new SQSBatchResponse(List.of(new SQSBatchResponse.BatchItemFailure("not-a-message-id")))
                : new SQSBatchResponse(List.of()));
        String name = uniqueName("unknown-id");
        String url = createQueue(name, Map.of());
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("x"));
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("y"));
        String uuid = mapping("java-fn", name, ",\"FunctionResponseTypes\":[\"ReportBatchItemFailures\"]");
        try {
            await("the failed batch", WAIT, () -> metrics(uuid).errors() == 1);
            assertThat(depth(url)).isEqualTo(2);
            advance(PAST_VISIBILITY);
            await("the retry", WAIT, () -> depth(url) == 0);
        } finally {
            deleteMapping(uuid);
        }
    }

    @Test
    void aCallPastTheFunctionTimeoutFailsAndTheMessageReturns() throws Exception {
        Set<String> slowOnce = ConcurrentHashMap.newKeySet();
        java.handler(e -> {
            if (slowOnce.add(e.getRecords().get(0).getMessageId())) {
                Thread.sleep(2_500); // the function timeout is 1 s
            }
            return null;
        });
        String name = uniqueName("timeout");
        String url = createQueue(name, Map.of());
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("slow"));
        String uuid = mapping("java-slow", name, "");
        try {
            await("the timed-out call", WAIT, () -> metrics(uuid).errors() == 1);
            assertThat(depth(url)).isEqualTo(1);
            advance(PAST_VISIBILITY);
            await("the retry", WAIT, () -> depth(url) == 0);
            assertThat(java.recordsFor(arn(name))).hasSize(2);
        } finally {
            deleteMapping(uuid);
        }
    }

    @Test
    void aPoisonMessageReachesTheDeadLetterQueueAfterMaxReceiveCount() throws Exception {
        java.handler(e -> {
            throw new IllegalStateException("cannot process " + e.getRecords().get(0).getBody());
        });
        String dlqName = uniqueName("poison-dlq");
        String dlqUrl = createQueue(dlqName, Map.of());
        String name = uniqueName("poison");
        String url = createQueue(name, Map.of(QueueAttributeName.REDRIVE_POLICY,
                "{\"deadLetterTargetArn\":\"" + arn(dlqName) + "\",\"maxReceiveCount\":\"2\"}"));
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("poison"));
        String uuid = mapping("java-fn", name, "");
        try {
            await("first attempt", WAIT, () -> metrics(uuid).errors() == 1);
            advance(PAST_VISIBILITY);
            await("second attempt", WAIT, () -> metrics(uuid).errors() == 2);
            advance(PAST_VISIBILITY);
            await("moved to the DLQ", WAIT, () -> depth(dlqUrl) == 1 && depth(url) == 0);
            assertThat(java.recordsFor(arn(name))).hasSize(2);
        } finally {
            deleteMapping(uuid);
        }
    }

    @Test
    void fifoBatchesHoldOneGroupInOrderAndStopAtTheFirstFailedItem() throws Exception {
        Set<String> failedOnce = ConcurrentHashMap.newKeySet();
        java.handler(e -> {
            // a FIFO handler as AWS documents it: on a failure, report it and everything after it
            List<SQSBatchResponse.BatchItemFailure> failures = new ArrayList<>();
            for (SQSEvent.SQSMessage m : e.getRecords()) {
                if (!failures.isEmpty() || (m.getBody().equals("g1-2") && failedOnce.add(m.getBody()))) {
                    failures.add(new SQSBatchResponse.BatchItemFailure(m.getMessageId()));
                }
            }
            return new SQSBatchResponse(failures);
        });
        String name = uniqueName("order") + ".fifo";
        String url = createQueue(name, Map.of(QueueAttributeName.FIFO_QUEUE, "true",
                QueueAttributeName.CONTENT_BASED_DEDUPLICATION, "true"));
        for (int i = 0; i < 6; i++) {
            for (String g : List.of("g1", "g2", "g3")) {
                String body = g + "-" + i;
                sqs.sendMessage(b -> b.queueUrl(url).messageBody(body).messageGroupId(g));
            }
        }
        String uuid = mapping("java-fn", name, ",\"BatchSize\":4,\"FunctionResponseTypes\":[\"ReportBatchItemFailures\"]");
        try {
            await("g2 and g3 done, g1 waiting", WAIT, () -> metrics(uuid).messagesDeleted() == 14);
            advance(PAST_VISIBILITY);
            await("all 18 processed", WAIT, () -> depth(url) == 0);
            for (List<SQSEvent.SQSMessage> batch : java.invocationsFor(arn(name))) {
                assertThat(batch).extracting(m -> m.getAttributes().get("MessageGroupId")).containsOnly(
                        batch.get(0).getAttributes().get("MessageGroupId"));
                for (int i = 1; i < batch.size(); i++) {
                    assertThat(new BigInteger(batch.get(i).getAttributes().get("SequenceNumber")))
                            .isGreaterThan(new BigInteger(batch.get(i - 1).getAttributes().get("SequenceNumber")));
                }
            }
            for (String g : List.of("g1", "g2", "g3")) {
                List<String> seen = new ArrayList<>();
                for (SQSEvent.SQSMessage m : java.recordsFor(arn(name))) {
                    if (m.getAttributes().get("MessageGroupId").equals(g) && !seen.contains(m.getBody())) {
                        seen.add(m.getBody());
                    }
                }
                assertThat(seen).containsExactly(g + "-0", g + "-1", g + "-2", g + "-3", g + "-4", g + "-5");
            }
            SQSEvent.SQSMessage retried = java.recordsFor(arn(name)).stream()
                    .filter(m -> m.getBody().equals("g1-2") && m.getAttributes().get("ApproximateReceiveCount").equals("2"))
                    .findFirst().orElseThrow();
            assertThat(retried.getAttributes()).containsKeys("SequenceNumber", "MessageDeduplicationId");
        } finally {
            deleteMapping(uuid);
        }
    }

    @Test
    void messagesThatMatchNoFilterAreDeletedWithoutAnInvocation() throws Exception {
        java.handler(e -> null);
        String name = uniqueName("filter");
        String url = createQueue(name, Map.of());
        for (String body : List.of("{\"kind\":\"order\",\"n\":5}", "{\"kind\":\"refund\"}", "plain text", "{\"kind\":\"order\",\"n\":50}")) {
            sqs.sendMessage(b -> b.queueUrl(url).messageBody(body));
        }
        String pattern = "{\\\"body\\\":{\\\"kind\\\":[\\\"order\\\"],\\\"n\\\":[{\\\"numeric\\\":[\\\"<\\\",10]}]}}";
        String uuid = mapping("java-fn", name, ",\"FilterCriteria\":{\"Filters\":[{\"Pattern\":\"" + pattern + "\"}]}");
        try {
            await("queue drained", WAIT, () -> depth(url) == 0);
            assertThat(java.recordsFor(arn(name))).extracting(SQSEvent.SQSMessage::getBody).containsExactly("{\"kind\":\"order\",\"n\":5}");
            assertThat(metrics(uuid).messagesFiltered()).isEqualTo(3);
        } finally {
            deleteMapping(uuid);
        }
    }

    @Test
    void concurrencyScalesWithTheBacklogUpToMaximumConcurrencyAndBackDown() throws Exception {
        java.handler(e -> {
            Thread.sleep(150);
            return null;
        });
        java.resetMaxInFlight();
        String name = uniqueName("scale");
        String url = createQueue(name, Map.of());
        for (int i = 0; i < 6; i++) {
            int base = i * 10;
            sqs.sendMessageBatch(b -> b.queueUrl(url).entries(IntStream.range(0, 10)
                    .mapToObj(j -> SendMessageBatchRequestEntry.builder()
                            .id("e" + j).messageBody("m" + (base + j)).build()).toList()));
        }
        String uuid = mapping("java-fn", name, ",\"BatchSize\":1,\"ScalingConfig\":{\"MaximumConcurrency\":3}");
        try {
            await("backlog drained", WAIT, () -> depth(url) == 0);
            assertThat(java.maxInFlight()).isEqualTo(3); // scaled up, never past the maximum
            assertThat(metrics(uuid).maxBatchSize()).isEqualTo(1);
            // idle extra pollers wait 1 s (on the server's clock) for messages, then stop
            await("back to one poller", WAIT, () -> {
                advance(Duration.ofSeconds(2));
                return metrics(uuid).pollers() == 1;
            });
            assertThat(metrics(uuid).concurrency()).isZero();
        } finally {
            deleteMapping(uuid);
        }
    }

    @Test
    void aBatchingWindowGathersBatchesLargerThanOneReceiveUntilFullOrTheWindowEnds() throws Exception {
        java.handler(e -> null);
        String name = uniqueName("window");
        String url = createQueue(name, Map.of());
        for (int i = 0; i < 3; i++) {
            int base = i * 10;
            sqs.sendMessageBatch(b -> b.queueUrl(url).entries(IntStream.range(0, 10)
                    .mapToObj(j -> SendMessageBatchRequestEntry.builder().id("e" + j).messageBody("w" + (base + j)).build()).toList()));
        }
        String uuid = mapping("java-fn", name, ",\"BatchSize\":25,\"MaximumBatchingWindowInSeconds\":5");
        try {
            await("a full batch of 25 gathered from three receives", WAIT, () -> java.invocationsFor(arn(name)).size() == 1);
            assertThat(java.invocationsFor(arn(name)).get(0)).hasSize(25);
            // the first 25 are deleted; the other 5 wait for the window (on the server's clock) to end
            await("the full batch deleted", WAIT, () -> depth(url) == 5);
            assertThat(java.invocationsFor(arn(name))).hasSize(1);
            advance(Duration.ofSeconds(6));
            await("the window ended", WAIT, () -> java.invocationsFor(arn(name)).size() == 2);
            assertThat(java.invocationsFor(arn(name)).get(1)).hasSize(5);
            await("all deleted", WAIT, () -> depth(url) == 0);
        } finally {
            deleteMapping(uuid);
        }
    }

    @Test
    void signedCallsVerifyWithTheSharedSecret() throws Exception {
        signed.handler(e -> null);
        String name = uniqueName("signed");
        String url = createQueue(name, Map.of());
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("hello"));
        String uuid = mapping("java-signed", name, "");
        try {
            await("delivered and deleted", WAIT, () -> depth(url) == 0);
            assertThat(signed.badSignatures()).isZero();
            assertThat(signed.recordsFor(arn(name))).hasSize(1);
        } finally {
            deleteMapping(uuid);
        }
    }
}
