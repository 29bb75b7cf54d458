package io.hikyaku.it;

import static io.hikyaku.it.support.SqsErrors.assertV2Error;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.hikyaku.it.support.Json;
import io.hikyaku.it.support.SqsTestBase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.ListDeadLetterSourceQueuesResponse;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/** Redrive to dead-letter queues, DeadLetterQueueSourceArn, ListDeadLetterSourceQueues. */
class DeadLetterTest extends SqsTestBase {

    private List<Message> receive(String url, int visibility) {
        return sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(10).visibilityTimeout(visibility)
                .messageAttributeNames("All").messageSystemAttributeNames(MessageSystemAttributeName.ALL)).messages();
    }

    @Test
    void messageMovesToDlqAfterMaxReceiveCount() {
        String dlqName = unique("dlq");
        String dlq = createQueue(dlqName);
        String srcName = unique("dl-src");
        String src = createQueue(srcName, Map.of(QueueAttributeName.REDRIVE_POLICY, redrivePolicy(arn(dlqName), 2)));
        String id = sqs.sendMessage(b -> b.queueUrl(src).messageBody("poison").messageAttributes(Map.of("k",
                MessageAttributeValue.builder().dataType("String").stringValue("v").build()))).messageId();
        assertThat(receive(src, 0)).hasSize(1);
        assertThat(receive(src, 0)).hasSize(1);
        // the third receive finds the count exhausted and moves the message instead
        assertThat(receive(src, 0)).isEmpty();
        List<Message> dead = receive(dlq, 30);
        assertThat(dead).hasSize(1);
        Message m = dead.get(0);
        assertThat(m.messageId()).isEqualTo(id);
        assertThat(m.body()).isEqualTo("poison");
        assertThat(m.messageAttributes()).containsOnlyKeys("k");
        assertThat(m.attributesAsStrings()).containsEntry("DeadLetterQueueSourceArn", arn(srcName));
        assertThat(attribute(src, QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES)).isEqualTo("0");
    }

    @Test
    void messageMovesAfterVisibilityExpiriesOnTheFakeClock() {
        String dlqName = unique("dlq");
        String dlq = createQueue(dlqName);
        String src = createQueue(unique("dl-src"), Map.of(QueueAttributeName.REDRIVE_POLICY, redrivePolicy(arn(dlqName), 1),
                QueueAttributeName.VISIBILITY_TIMEOUT, "5"));
        sqs.sendMessage(b -> b.queueUrl(src).messageBody("once"));
        assertThat(sqs.receiveMessage(b -> b.queueUrl(src)).messages()).hasSize(1);
        advance(Duration.ofSeconds(6));
        assertThat(sqs.receiveMessage(b -> b.queueUrl(src)).messages()).isEmpty();
        assertThat(sqs.receiveMessage(b -> b.queueUrl(dlq)).messages()).extracting(Message::body).containsExactly("once");
    }

    @Test
    void fifoMessageMovesToFifoDlqWithItsGroup() {
        String dlqName = uniqueFifo("dlq");
        String dlq = createFifoQueue(dlqName, Map.of());
        String srcName = uniqueFifo("dl-src");
        String src = createFifoQueue(srcName, Map.of(QueueAttributeName.REDRIVE_POLICY, redrivePolicy(arn(dlqName), 1)));
        sqs.sendMessage(b -> b.queueUrl(src).messageBody("f1").messageGroupId("g").messageDeduplicationId("1"));
        sqs.sendMessage(b -> b.queueUrl(src).messageBody("f2").messageGroupId("g").messageDeduplicationId("2"));
        assertThat(sqs.receiveMessage(b -> b.queueUrl(src).maxNumberOfMessages(1).visibilityTimeout(0)).messages())
                .extracting(Message::body).containsExactly("f1");
        // f1 is exhausted: it moves, then f2 can be delivered
        List<Message> next = sqs.receiveMessage(b -> b.queueUrl(src).maxNumberOfMessages(1)).messages();
        assertThat(next).extracting(Message::body).containsExactly("f2");
        Message dead = receive(dlq, 30).get(0);
        assertThat(dead.body()).isEqualTo("f1");
        assertThat(dead.attributesAsStrings()).containsEntry("MessageGroupId", "g")
                .containsEntry("DeadLetterQueueSourceArn", arn(srcName));
    }

    @Test
    void redrivePolicyReadsBackAsJson() {
        String dlqName = unique("dlq");
        createQueue(dlqName);
        String src = createQueue(unique("dl-src"), Map.of(QueueAttributeName.REDRIVE_POLICY, redrivePolicy(arn(dlqName), 4)));
        JsonNode policy = Json.parse(attribute(src, QueueAttributeName.REDRIVE_POLICY));
        assertThat(policy.path("deadLetterTargetArn").asText()).isEqualTo(arn(dlqName));
        assertThat(policy.path("maxReceiveCount").asInt()).isEqualTo(4);
    }

    @Test
    void redrivePolicyToAMissingQueue() {
        assertV2Error(() -> createQueue(unique("dl-bad"), Map.of(QueueAttributeName.REDRIVE_POLICY,
                redrivePolicy(arn("no-such-dlq"), 3))), "InvalidParameterValue", null);
    }

    @Test
    void redrivePolicyWithMaxReceiveCountZero() {
        String dlqName = unique("dlq");
        createQueue(dlqName);
        assertV2Error(() -> createQueue(unique("dl-bad"), Map.of(QueueAttributeName.REDRIVE_POLICY,
                redrivePolicy(arn(dlqName), 0))), "InvalidParameterValue", null);
    }

    @Test
    void redrivePolicyWithoutMaxReceiveCount() {
        String dlqName = unique("dlq");
        createQueue(dlqName);
        String policy = "{\"deadLetterTargetArn\":\"" + arn(dlqName) + "\"}";
        // AWS: "Value {...} for parameter RedrivePolicy is invalid. Reason: Redrive policy does not contain mandatory
        // attribute: maxReceiveCount." (InvalidParameterValue)
        assertV2Error(() -> createQueue(unique("dl-bad"), Map.of(QueueAttributeName.REDRIVE_POLICY, policy)),
                "InvalidParameterValue", "Value " + policy + " for parameter RedrivePolicy is invalid. Reason: Redrive policy"
                        + " does not contain mandatory attribute: maxReceiveCount.");
    }

    @Test
    void redrivePolicyThatIsNotJson() {
        // AWS reports RedrivePolicy content errors as InvalidParameterValue ("Value ... for parameter RedrivePolicy is invalid.")
        assertV2Error(() -> createQueue(unique("dl-bad"), Map.of(QueueAttributeName.REDRIVE_POLICY, "not json")),
                "InvalidParameterValue", null);
    }

    @Test
    void standardQueueCannotUseAFifoDeadLetterQueue() {
        String fifoDlq = uniqueFifo("dlq");
        createFifoQueue(fifoDlq, Map.of());
        assertV2Error(() -> createQueue(unique("dl-bad"), Map.of(QueueAttributeName.REDRIVE_POLICY,
                redrivePolicy(arn(fifoDlq), 3))), "InvalidParameterValue", null);
    }

    @Test
    void redriveAllowPolicyDenyAllRefusesSources() {
        String dlqName = unique("dlq-deny");
        createQueue(dlqName, Map.of(QueueAttributeName.REDRIVE_ALLOW_POLICY, "{\"redrivePermission\":\"denyAll\"}"));
        assertV2Error(() -> createQueue(unique("dl-src"), Map.of(QueueAttributeName.REDRIVE_POLICY,
                redrivePolicy(arn(dlqName), 3))), "InvalidParameterValue", null);
    }

    @Test
    void listDeadLetterSourceQueuesWithPagination_v2() {
        String dlqName = unique("dlq-list");
        String dlq = createQueue(dlqName);
        List<String> sources = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            sources.add(createQueue(unique("dl-src"), Map.of(QueueAttributeName.REDRIVE_POLICY, redrivePolicy(arn(dlqName), 3))));
        }
        createQueue(unique("dl-unrelated"));
        assertThat(sqs.listDeadLetterSourceQueues(b -> b.queueUrl(dlq)).queueUrls()).containsExactlyInAnyOrderElementsOf(sources);
        List<String> seen = new ArrayList<>();
        String token = null;
        for (int page = 0; page < 4; page++) {
            String t = token;
            ListDeadLetterSourceQueuesResponse r = sqs.listDeadLetterSourceQueues(b -> b.queueUrl(dlq).maxResults(2).nextToken(t));
            seen.addAll(r.queueUrls());
            token = r.nextToken();
            if (token == null) {
                break;
            }
        }
        assertThat(token).isNull();
        assertThat(seen).containsExactlyInAnyOrderElementsOf(sources);
        // a queue nobody redrives to has no sources
        assertThat(sqs.listDeadLetterSourceQueues(b -> b.queueUrl(sources.get(0))).queueUrls()).isEmpty();
    }

    @Test
    void listDeadLetterSourceQueues_v1() {
        String dlqName = unique("dlq-v1");
        String dlq = sqsV1.createQueue(dlqName).getQueueUrl();
        String src = sqsV1.createQueue(new com.amazonaws.services.sqs.model.CreateQueueRequest(unique("dl-src1"))
                .addAttributesEntry("RedrivePolicy", redrivePolicy(arn(dlqName), 2))).getQueueUrl();
        assertThat(sqsV1.listDeadLetterSourceQueues(new com.amazonaws.services.sqs.model.ListDeadLetterSourceQueuesRequest()
                .withQueueUrl(dlq)).getQueueUrls()).containsExactly(src);
    }

    @Test
    void redriveAllowPolicyByQueueAdmitsOnlyListedSources() {
        String allowedName = unique("dl-allowed");
        String dlqName = unique("dlq-byqueue");
        createQueue(dlqName, Map.of(QueueAttributeName.REDRIVE_ALLOW_POLICY,
                "{\"redrivePermission\":\"byQueue\",\"sourceQueueArns\":[\"" + arn(allowedName) + "\"]}"));
        createQueue(allowedName, Map.of(QueueAttributeName.REDRIVE_POLICY, redrivePolicy(arn(dlqName), 3)));
        assertV2Error(() -> createQueue(unique("dl-other"), Map.of(QueueAttributeName.REDRIVE_POLICY,
                redrivePolicy(arn(dlqName), 3))), "InvalidParameterValue", null);
    }

    @Test
    void aStandardMessageKeepsItsOriginalEnqueueTimeInTheDlq() {
        // AWS: for standard queues expiry always counts from the original enqueue time, also after a move to the DLQ
        String dlqName = unique("dlq-ret");
        String dlq = createQueue(dlqName);
        String src = createQueue(unique("dl-src-ret"), Map.of(QueueAttributeName.REDRIVE_POLICY, redrivePolicy(arn(dlqName), 1)));
        long sentAt = clock.millis();
        sqs.sendMessage(b -> b.queueUrl(src).messageBody("aging"));
        advance(Duration.ofDays(3));
        assertThat(receive(src, 0)).hasSize(1);
        assertThat(receive(src, 0)).isEmpty();
        List<Message> dead = receive(dlq, 0);
        assertThat(dead).extracting(Message::body).containsExactly("aging");
        assertThat(dead.get(0).attributesAsStrings()).containsEntry("SentTimestamp", String.valueOf(sentAt));
        advance(Duration.ofDays(1).plusSeconds(1));
        assertThat(receive(dlq, 0)).isEmpty();
    }
}
