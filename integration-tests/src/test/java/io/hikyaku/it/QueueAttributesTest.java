package io.hikyaku.it;

import static io.hikyaku.it.support.SqsErrors.assertV1Error;
import static io.hikyaku.it.support.SqsErrors.assertV2Error;
import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.sqs.model.GetQueueAttributesRequest;
import io.hikyaku.it.support.SqsTestBase;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/** CreateQueue/SetQueueAttributes/GetQueueAttributes rules (behaviours 11-22). */
class QueueAttributesTest extends SqsTestBase {

    private Map<String, String> all(String url) {
        return sqs.getQueueAttributes(b -> b.queueUrl(url).attributeNames(QueueAttributeName.ALL)).attributesAsStrings();
    }

    @Test
    void b11_standardQueueWithFifoQueueFalse() {
        assertV2Error(() -> createQueue(unique("qa"), Map.of(QueueAttributeName.FIFO_QUEUE, "false")),
                "InvalidAttributeName", "Unknown Attribute FifoQueue.");
    }

    @Test
    void b12_standardQueueWithContentBasedDeduplication() {
        assertV2Error(() -> createQueue(unique("qa"), Map.of(QueueAttributeName.CONTENT_BASED_DEDUPLICATION, "true")),
                "InvalidAttributeName", "Unknown Attribute ContentBasedDeduplication.");
    }

    @Test
    void b13_standardQueueWithDeduplicationScope() {
        assertV2Error(() -> createQueue(unique("qa"), Map.of(QueueAttributeName.DEDUPLICATION_SCOPE, "queue")),
                "InvalidAttributeName", "You can specify the DeduplicationScope only when FifoQueue is set to true.");
    }

    @Test
    void b14_standardQueueWithFifoThroughputLimit() {
        assertV2Error(() -> createQueue(unique("qa"), Map.of(QueueAttributeName.FIFO_THROUGHPUT_LIMIT, "perQueue")),
                "InvalidAttributeName", "You can specify the FifoThroughputLimit only when FifoQueue is set to true.");
    }

    @Test
    void b15_setFifoQueueOnStandardQueue() {
        String url = createQueue(unique("qa"));
        for (String v : new String[] {"true", "false"}) {
            assertV2Error(() -> sqs.setQueueAttributes(b -> b.queueUrl(url).attributes(Map.of(QueueAttributeName.FIFO_QUEUE, v))),
                    "InvalidAttributeName", "Unknown Attribute FifoQueue.");
        }
    }

    @Test
    void b16_setFifoQueueOnFifoQueue() {
        String url = createFifoQueue(uniqueFifo("qa"), Map.of());
        assertV2Error(() -> sqs.setQueueAttributes(b -> b.queueUrl(url).attributes(Map.of(QueueAttributeName.FIFO_QUEUE, "false"))),
                "InvalidAttributeValue", "Invalid value for the parameter FifoQueue. Reason: Modifying queue type is not supported.");
        sqs.setQueueAttributes(b -> b.queueUrl(url).attributes(Map.of(QueueAttributeName.FIFO_QUEUE, "true")));
        assertThat(attribute(url, QueueAttributeName.FIFO_QUEUE)).isEqualTo("true");
    }

    @Test
    void b17_kmsAndSqsManagedSseTogether() {
        assertV2Error(() -> createQueue(unique("qa"), Map.of(QueueAttributeName.KMS_MASTER_KEY_ID, "testKeyId",
                        QueueAttributeName.SQS_MANAGED_SSE_ENABLED, "true")), "InvalidAttributeName",
                "You can use one type of server-side encryption (SSE) at one time. You can either enable KMS SSE or SQS SSE.");
    }

    @Test
    void b18_allAttributesOfNewStandardQueue() {
        String name = unique("qa-all");
        long createdAt = clock.instant().getEpochSecond();
        String url = createQueue(name);
        Map<String, String> attrs = all(url);
        assertThat(attrs.keySet()).containsExactlyInAnyOrder("ApproximateNumberOfMessages",
                "ApproximateNumberOfMessagesDelayed", "ApproximateNumberOfMessagesNotVisible", "CreatedTimestamp",
                "DelaySeconds", "LastModifiedTimestamp", "MaximumMessageSize", "MessageRetentionPeriod", "QueueArn",
                "ReceiveMessageWaitTimeSeconds", "SqsManagedSseEnabled", "VisibilityTimeout");
        assertThat(attrs).containsEntry("ApproximateNumberOfMessages", "0")
                .containsEntry("ApproximateNumberOfMessagesDelayed", "0")
                .containsEntry("ApproximateNumberOfMessagesNotVisible", "0")
                .containsEntry("DelaySeconds", "0")
                .containsEntry("MaximumMessageSize", "1048576")
                .containsEntry("MessageRetentionPeriod", "345600")
                .containsEntry("QueueArn", arn(name))
                .containsEntry("ReceiveMessageWaitTimeSeconds", "0")
                .containsEntry("SqsManagedSseEnabled", "true")
                .containsEntry("VisibilityTimeout", "30");
        // timestamps are epoch seconds, taken from the server's clock
        assertThat(Long.parseLong(attrs.get("CreatedTimestamp"))).isEqualTo(createdAt);
        assertThat(attrs.get("LastModifiedTimestamp")).isEqualTo(attrs.get("CreatedTimestamp"));
    }

    @Test
    void b19_allAttributesOfNewFifoQueue() {
        String name = uniqueFifo("qa-all");
        String url = createFifoQueue(name, Map.of());
        Map<String, String> attrs = all(url);
        assertThat(attrs).containsEntry("FifoQueue", "true")
                .containsEntry("ContentBasedDeduplication", "false")
                .containsEntry("DeduplicationScope", "queue")
                .containsEntry("FifoThroughputLimit", "perQueue")
                .containsEntry("QueueArn", "arn:aws:sqs:us-east-1:000000000000:" + name)
                .containsEntry("VisibilityTimeout", "30")
                .containsEntry("SqsManagedSseEnabled", "true")
                .doesNotContainKeys("Policy", "RedrivePolicy");
    }

    @Test
    void b20_kmsAttributesAppearAndAreRemoved() {
        String url = createQueue(unique("qa-kms"));
        sqs.setQueueAttributes(b -> b.queueUrl(url).attributes(Map.of(QueueAttributeName.KMS_MASTER_KEY_ID, "testKeyId",
                QueueAttributeName.KMS_DATA_KEY_REUSE_PERIOD_SECONDS, "6000")));
        assertThat(all(url)).containsEntry("KmsMasterKeyId", "testKeyId")
                .containsEntry("KmsDataKeyReusePeriodSeconds", "6000")
                .containsEntry("SqsManagedSseEnabled", "false");
        sqs.setQueueAttributes(b -> b.queueUrl(url).attributes(Map.of(QueueAttributeName.KMS_MASTER_KEY_ID, "",
                QueueAttributeName.KMS_DATA_KEY_REUSE_PERIOD_SECONDS, "300")));
        assertThat(all(url)).doesNotContainKeys("KmsMasterKeyId", "KmsDataKeyReusePeriodSeconds")
                .containsEntry("SqsManagedSseEnabled", "false");
    }

    @Test
    void b21_unknownAttributeNameInGetQueueAttributes_json() {
        String url = createQueue(unique("qa-unknown"));
        assertV2Error(() -> sqs.getQueueAttributes(b -> b.queueUrl(url).attributeNamesWithStrings("Foobar")),
                "InvalidAttributeName", "Unknown Attribute Foobar.");
    }

    @Test
    void unknownAttributeNameInCreateQueue() {
        assertV2Error(() -> sqs.createQueue(b -> b.queueName(unique("qa")).attributesWithStrings(Map.of("Foobar", "1"))),
                "InvalidAttributeName", "Unknown Attribute Foobar.");
    }

    @Test
    void b22_emptyRedrivePolicyAndPolicyRemoveTheAttribute() {
        String dlqName = unique("qa-dlq");
        createQueue(dlqName);
        String url = createQueue(unique("qa-src"), Map.of(QueueAttributeName.REDRIVE_POLICY, redrivePolicy(arn(dlqName), 3)));
        assertThat(all(url)).containsKey("RedrivePolicy");
        sqs.setQueueAttributes(b -> b.queueUrl(url).attributes(Map.of(QueueAttributeName.REDRIVE_POLICY, "")));
        assertThat(all(url)).doesNotContainKey("RedrivePolicy");

        String policy = "{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Allow\",\"Principal\":\"*\","
                + "\"Action\":\"sqs:SendMessage\",\"Resource\":\"" + attribute(url, QueueAttributeName.QUEUE_ARN) + "\"}]}";
        sqs.setQueueAttributes(b -> b.queueUrl(url).attributes(Map.of(QueueAttributeName.POLICY, policy)));
        assertThat(io.hikyaku.it.support.Json.parse(attribute(url, QueueAttributeName.POLICY)))
                .isEqualTo(io.hikyaku.it.support.Json.parse(policy));
        sqs.setQueueAttributes(b -> b.queueUrl(url).attributes(Map.of(QueueAttributeName.POLICY, "")));
        assertThat(all(url)).doesNotContainKey("Policy");
    }

    @Test
    void outOfRangeValuesAreRefused() {
        String url = createQueue(unique("qa-range"));
        Map<QueueAttributeName, String> bad = Map.of(
                QueueAttributeName.VISIBILITY_TIMEOUT, "43201",
                QueueAttributeName.DELAY_SECONDS, "901",
                QueueAttributeName.MAXIMUM_MESSAGE_SIZE, "1023",
                QueueAttributeName.MESSAGE_RETENTION_PERIOD, "59",
                QueueAttributeName.RECEIVE_MESSAGE_WAIT_TIME_SECONDS, "21");
        bad.forEach((name, value) -> {
            assertV2Error(() -> sqs.setQueueAttributes(b -> b.queueUrl(url).attributes(Map.of(name, value))),
                    "InvalidAttributeValue", null);
            assertV2Error(() -> createQueue(unique("qa-range"), Map.of(name, value)), "InvalidAttributeValue", null);
        });
        // the limits themselves are accepted
        sqs.setQueueAttributes(b -> b.queueUrl(url).attributes(Map.of(QueueAttributeName.VISIBILITY_TIMEOUT, "43200",
                QueueAttributeName.DELAY_SECONDS, "900", QueueAttributeName.MAXIMUM_MESSAGE_SIZE, "1024",
                QueueAttributeName.MESSAGE_RETENTION_PERIOD, "1209600",
                QueueAttributeName.RECEIVE_MESSAGE_WAIT_TIME_SECONDS, "20")));
        assertThat(all(url)).containsEntry("VisibilityTimeout", "43200").containsEntry("DelaySeconds", "900")
                .containsEntry("MaximumMessageSize", "1024").containsEntry("MessageRetentionPeriod", "1209600")
                .containsEntry("ReceiveMessageWaitTimeSeconds", "20");
    }

    @Test
    void setUpdatesLastModifiedTimestampButNotCreated() {
        String url = createQueue(unique("qa-mod"));
        String created = attribute(url, QueueAttributeName.CREATED_TIMESTAMP);
        advance(Duration.ofSeconds(10));
        sqs.setQueueAttributes(b -> b.queueUrl(url).attributes(Map.of(QueueAttributeName.DELAY_SECONDS, "3")));
        Map<String, String> attrs = all(url);
        assertThat(attrs.get("CreatedTimestamp")).isEqualTo(created);
        assertThat(Long.parseLong(attrs.get("LastModifiedTimestamp"))).isEqualTo(Long.parseLong(created) + 10);
        assertThat(attrs).containsEntry("DelaySeconds", "3");
    }

    @Test
    void getReturnsOnlyTheNamedAttributes() {
        String url = createQueue(unique("qa-sel"));
        assertThat(attributes(url, QueueAttributeName.VISIBILITY_TIMEOUT, QueueAttributeName.DELAY_SECONDS))
                .containsOnlyKeys("VisibilityTimeout", "DelaySeconds");
        // no AttributeNames at all: no attributes
        assertThat(sqs.getQueueAttributes(b -> b.queueUrl(url)).attributes()).isEmpty();
    }

    @Test
    void approximateCountsFollowMessageStates() {
        String url = createQueue(unique("qa-count"));
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("one"));
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("two"));
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("delayed").delaySeconds(60));
        assertThat(sqs.receiveMessage(b -> b.queueUrl(url)).messages()).hasSize(1);
        assertThat(attributes(url, QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES,
                QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE,
                QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_DELAYED))
                .containsEntry("ApproximateNumberOfMessages", "1")
                .containsEntry("ApproximateNumberOfMessagesNotVisible", "1")
                .containsEntry("ApproximateNumberOfMessagesDelayed", "1");
    }

    @Test
    void getAndSetAttributes_v1() {
        String name = unique("qa-v1");
        String url = sqsV1.createQueue(new com.amazonaws.services.sqs.model.CreateQueueRequest(name)
                .addAttributesEntry("VisibilityTimeout", "45")).getQueueUrl();
        sqsV1.setQueueAttributes(url, Map.of("DelaySeconds", "5", "MaximumMessageSize", "2048"));
        Map<String, String> attrs = sqsV1.getQueueAttributes(new GetQueueAttributesRequest(url).withAttributeNames("All"))
                .getAttributes();
        assertThat(attrs).containsEntry("VisibilityTimeout", "45").containsEntry("DelaySeconds", "5")
                .containsEntry("MaximumMessageSize", "2048").containsEntry("QueueArn", arn(name));
        assertV1Error(() -> sqsV1.setQueueAttributes(url, Map.of("FifoQueue", "true")),
                "InvalidAttributeName", "Unknown Attribute FifoQueue.");
        assertV1Error(() -> sqsV1.getQueueAttributes(url, java.util.List.of("Foobar")),
                "InvalidAttributeName", "Unknown Attribute Foobar.");
    }

    @Test
    void unknownAttributeNameInSetQueueAttributes() {
        String url = createQueue(unique("qa-set-unknown"));
        assertV2Error(() -> sqs.setQueueAttributes(b -> b.queueUrl(url).attributesWithStrings(Map.of("Foobar", "1"))),
                "InvalidAttributeName", "Unknown Attribute Foobar.");
        // read-only attributes cannot be set either
        assertV2Error(() -> sqs.setQueueAttributes(b -> b.queueUrl(url).attributesWithStrings(Map.of("QueueArn", "x"))),
                "InvalidAttributeName", null);
    }
}
