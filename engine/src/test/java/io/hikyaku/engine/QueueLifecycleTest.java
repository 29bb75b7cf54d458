package io.hikyaku.engine;

import io.hikyaku.engine.command.Command;
import static io.hikyaku.engine.EngineFixture.ACCOUNT;
import static io.hikyaku.engine.EngineFixture.attrs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

class QueueLifecycleTest {

    private final EngineFixture f = new EngineFixture();

    static void assertError(ThrowingCallable call, String type, String message) {
        assertThatThrownBy(call).isInstanceOfSatisfying(EngineException.class, e -> {
            assertThat(e.errorType()).isEqualTo(type);
            if (message != null) {
                assertThat(e.getMessage()).isEqualTo(message);
            }
        });
    }

    private Durable<QueueInfo> create(String name, Map<String, String> attributes) {
        return f.engine.apply(new Command.CreateQueue(new CreateQueue(ACCOUNT, "eu-west-1", name, AttributeUpdate.of(attributes), null, f.now))).durable();
    }

    @Test
    void newStandardQueueHasExactlyTheDefaultAttributes() {
        QueueRef q = f.create("q1");
        Map<String, String> a = EngineFixture.attributesAt(f.engine, q, List.of("All"), f.now);
        assertThat(a).containsOnlyKeys("ApproximateNumberOfMessages", "ApproximateNumberOfMessagesDelayed",
                "ApproximateNumberOfMessagesNotVisible", "CreatedTimestamp", "DelaySeconds", "LastModifiedTimestamp",
                "MaximumMessageSize", "MessageRetentionPeriod", "QueueArn", "ReceiveMessageWaitTimeSeconds",
                "SqsManagedSseEnabled", "VisibilityTimeout");
        assertThat(a).containsEntry("MaximumMessageSize", "1048576").containsEntry("MessageRetentionPeriod", "345600")
                .containsEntry("SqsManagedSseEnabled", "true").containsEntry("VisibilityTimeout", "30")
                .containsEntry("QueueArn", "arn:aws:sqs:us-east-1:123456789012:q1")
                .containsEntry("CreatedTimestamp", Long.toString(EngineFixture.T0 / 1000));
        assertThat(EngineFixture.attributesAt(f.engine, q, List.of(), f.now)).isEmpty();
        assertThat(EngineFixture.attributesAt(f.engine, q, List.of("VisibilityTimeout"), f.now)).containsOnlyKeys("VisibilityTimeout");
    }

    @Test
    void newFifoQueueAddsFifoAttributesAndRegionalArn() {
        QueueInfo info = create("q.fifo", attrs("FifoQueue", "true")).value();
        assertThat(info.arn()).isEqualTo("arn:aws:sqs:eu-west-1:123456789012:q.fifo");
        assertThat(EngineFixture.attributesAt(f.engine, info.ref(), List.of("All"), f.now))
                .containsEntry("FifoQueue", "true").containsEntry("ContentBasedDeduplication", "false")
                .containsEntry("DeduplicationScope", "queue").containsEntry("FifoThroughputLimit", "perQueue")
                .hasSize(16);
    }

    @Test
    void unknownAttributeNameIsRejected() {
        QueueRef q = f.create("q1");
        assertError(() -> EngineFixture.attributesAt(f.engine, q, List.of("Foobar"), f.now), "InvalidAttributeName",
                "Unknown Attribute Foobar.");
    }

    @Test
    void createIsIdempotentAgainstCurrentAttributes() {
        create("q", attrs("VisibilityTimeout", "1"));
        assertThat(create("q", attrs("VisibilityTimeout", "1")).value().name()).isEqualTo("q");
        assertThat(create("q", Map.of()).value().name()).isEqualTo("q");
        assertError(() -> create("q", attrs("DelaySeconds", "5")), "QueueNameExists",
                "A queue already exists with the same name and a different value for attribute DelaySeconds");
        f.engine.apply(new Command.SetQueueAttributes(EngineFixture.ref("q"), AttributeUpdate.of(attrs("VisibilityTimeout", "2")), f.now)).durable();
        assertError(() -> create("q", attrs("VisibilityTimeout", "1")), "QueueNameExists",
                "A queue already exists with the same name and a different value for attribute VisibilityTimeout");
        assertThat(create("q", attrs("VisibilityTimeout", "2")).value().name()).isEqualTo("q");
    }

    @Test
    void fifoVariantOfNameExists() {
        create("f.fifo", attrs("FifoQueue", "true"));
        assertError(() -> create("f.fifo", attrs("FifoQueue", "true", "ContentBasedDeduplication", "true")),
                "QueueNameExists",
                "A queue already exists with the same name and a different value for attribute ContentBasedDeduplication");
    }

    @Test
    void deletedNameIsBlockedFor60Seconds() {
        QueueRef q = f.create("gone");
        f.engine.apply(new Command.DeleteQueue(q, f.now)).durable();
        assertError(() -> f.engine.getQueue(q), "QueueDoesNotExist", "The specified queue does not exist.");
        f.engine.tick(f.now); // the store cleanup's chunk (ENGINE.md "Bounded work")
        f.advanceSeconds(59);
        assertError(() -> f.create("gone"), "QueueDeletedRecently",
                "You must wait 60 seconds after deleting a queue before you can create another with the same name.");
        assertThat(f.engine.nextDeadline()).isEqualTo(EngineFixture.T0 + 60_000);
        f.advanceSeconds(1);
        f.engine.tick(f.now);
        assertThat(f.create("gone").name()).isEqualTo("gone");
    }

    /** {@code --cooldowns off}: a deleted name is free at once, and purges may follow each other. */
    @Test
    void withoutCooldownsNamesAndPurgesNeedNoWait() {
        f.engine.cooldowns(false);
        QueueRef q = f.create("gone");
        f.send(q, "a");
        f.engine.apply(new Command.DeleteQueue(q, f.now)).durable();
        f.advance(1);
        assertThat(f.create("gone").name()).isEqualTo("gone");
        assertThat(f.counts(q)).isEqualTo(new QueueCounts(0, 0, 0));
        f.send(q, "b");
        f.engine.apply(new Command.PurgeQueue(q, f.now)).durable();
        f.send(q, "c");
        f.engine.apply(new Command.PurgeQueue(q, f.now)).durable();
        assertThat(f.counts(q)).isEqualTo(new QueueCounts(0, 0, 0));
    }

    @Test
    void fifoNamingAndFifoOnlyAttributes() {
        assertError(() -> create("nofifo", attrs("FifoQueue", "true")), "InvalidParameterValue", null);
        assertError(() -> create("std.fifo", Map.of()), "InvalidParameterValue", null);
        assertError(() -> create("std", attrs("FifoQueue", "false")), "InvalidAttributeName", "Unknown Attribute FifoQueue.");
        assertError(() -> create("std", attrs("ContentBasedDeduplication", "true")), "InvalidAttributeName",
                "Unknown Attribute ContentBasedDeduplication.");
        assertError(() -> create("std", attrs("DeduplicationScope", "queue")), "InvalidAttributeName",
                "You can specify the DeduplicationScope only when FifoQueue is set to true.");
        assertError(() -> create("std", attrs("FifoThroughputLimit", "perQueue")), "InvalidAttributeName",
                "You can specify the FifoThroughputLimit only when FifoQueue is set to true.");
        assertError(() -> create("bad name", Map.of()), "InvalidParameterValue", null);
    }

    @Test
    void setFifoQueueAttribute() {
        QueueRef std = f.create("std");
        QueueRef fifo = f.createFifo("f.fifo");
        assertError(() -> f.engine.apply(new Command.SetQueueAttributes(std, AttributeUpdate.of(attrs("FifoQueue", "true")), f.now)).durable(),
                "InvalidAttributeName", "Unknown Attribute FifoQueue.");
        assertError(() -> f.engine.apply(new Command.SetQueueAttributes(fifo, AttributeUpdate.of(attrs("FifoQueue", "false")), f.now)).durable(),
                "InvalidAttributeValue", "Invalid value for the parameter FifoQueue. Reason: Modifying queue type is not supported.");
        f.engine.apply(new Command.SetQueueAttributes(fifo, AttributeUpdate.of(attrs("FifoQueue", "true")), f.now)).durable();
    }

    @Test
    void rangesAreChecked() {
        assertError(() -> create("q", attrs("VisibilityTimeout", "43201")), "InvalidAttributeValue",
                "Invalid value for the parameter VisibilityTimeout.");
        assertError(() -> create("q", attrs("MaximumMessageSize", "1023")), "InvalidAttributeValue", null);
        assertError(() -> create("q", attrs("MessageRetentionPeriod", "1209601")), "InvalidAttributeValue", null);
        assertError(() -> create("q", attrs("DelaySeconds", "x")), "InvalidAttributeValue", null);
        assertThat(create("q", attrs("MessageRetentionPeriod", "1209600", "DelaySeconds", "900")).value()).isNotNull();
    }

    @Test
    void sseModesAreExclusiveAndKmsCanBeRemoved() {
        assertError(() -> create("q", attrs("KmsMasterKeyId", "k", "SqsManagedSseEnabled", "true")),
                "InvalidAttributeName",
                "You can use one type of server-side encryption (SSE) at one time. You can either enable KMS SSE or SQS SSE.");
        QueueRef q = f.create("q");
        f.engine.apply(new Command.SetQueueAttributes(q, AttributeUpdate.of(attrs("KmsMasterKeyId", "testKeyId",
                "KmsDataKeyReusePeriodSeconds", "6000")), f.now)).durable();
        assertThat(EngineFixture.attributesAt(f.engine, q, List.of("All"), f.now)).containsEntry("KmsMasterKeyId", "testKeyId")
                .containsEntry("KmsDataKeyReusePeriodSeconds", "6000").containsEntry("SqsManagedSseEnabled", "false");
        f.engine.apply(new Command.SetQueueAttributes(q, AttributeUpdate.of(attrs("KmsMasterKeyId", "",
                "KmsDataKeyReusePeriodSeconds", "300")), f.now)).durable();
        assertThat(EngineFixture.attributesAt(f.engine, q, List.of("All"), f.now)).doesNotContainKeys("KmsMasterKeyId",
                "KmsDataKeyReusePeriodSeconds").containsEntry("SqsManagedSseEnabled", "false");
    }

    @Test
    void emptyPolicyRemovesIt() {
        QueueRef q = f.create("q");
        f.engine.apply(new Command.SetQueueAttributes(q, AttributeUpdate.of(attrs("Policy", "{\"Version\":\"2012-10-17\"}")), f.now + 5000)).durable();
        Map<String, String> a = EngineFixture.attributesAt(f.engine, q, List.of("All"), f.now + 5000);
        assertThat(a).containsEntry("Policy", "{\"Version\":\"2012-10-17\"}")
                .containsEntry("LastModifiedTimestamp", Long.toString((EngineFixture.T0 + 5000) / 1000));
        f.advance(5000);
        f.engine.apply(new Command.SetQueueAttributes(q, AttributeUpdate.of(attrs("Policy", "")), f.now)).durable();
        assertThat(EngineFixture.attributesAt(f.engine, q, List.of("Policy"), f.now)).isEmpty();
    }

    @Test
    void listQueuesByPrefixWithPages() {
        for (String n : List.of("a1", "a2", "a3", "b1")) {
            f.create(n);
        }
        f.engine.apply(new Command.CreateQueue(new CreateQueue("999999999999", null, "a9", AttributeUpdate.none(), null, f.now))).durable();
        assertThat(f.engine.listQueues(ACCOUNT, null, null, null).queues()).extracting(QueueInfo::name)
                .containsExactly("a1", "a2", "a3", "b1");
        QueuePage p1 = f.engine.listQueues(ACCOUNT, "a", 2, null);
        assertThat(p1.queues()).extracting(QueueInfo::name).containsExactly("a1", "a2");
        assertThat(p1.nextToken()).isNotNull();
        QueuePage p2 = f.engine.listQueues(ACCOUNT, "a", 2, p1.nextToken());
        assertThat(p2.queues()).extracting(QueueInfo::name).containsExactly("a3");
        assertThat(p2.nextToken()).isNull();
        assertError(() -> f.engine.listQueues(ACCOUNT, null, 0, null), "InvalidParameterValue", null);
        assertError(() -> f.engine.listQueues(ACCOUNT, null, 1001, null), "InvalidParameterValue", null);
    }

    @Test
    void tagsMergeAndUntag() {
        QueueRef q = f.engine.apply(new Command.CreateQueue(new CreateQueue(ACCOUNT, null, "t", AttributeUpdate.none(),
                Map.of("a", "1"), f.now))).durable().value().ref();
        f.engine.apply(new Command.TagQueue(q, Map.of("a", "2", "b", "3"), f.now)).durable();
        assertThat(f.engine.listQueueTags(q)).containsExactlyEntriesOf(new java.util.TreeMap<>(Map.of("a", "2", "b", "3")));
        f.engine.apply(new Command.UntagQueue(q, List.of("a", "zz"), f.now)).durable();
        assertThat(f.engine.listQueueTags(q)).containsOnlyKeys("b");
    }

    @Test
    void permissionsMaintainThePolicyDocument() {
        QueueRef q = f.create("p");
        String arn = "arn:aws:sqs:us-east-1:123456789012:p";
        f.engine.apply(new Command.AddPermission(q, "crossaccountpermission", List.of("111111111111"), List.of("ReceiveMessage"), f.now)).durable();
        assertThat(EngineFixture.attributesAt(f.engine, q, List.of("Policy"), f.now).get("Policy")).isEqualTo(
                "{\"Version\":\"2008-10-17\",\"Id\":\"" + arn + "/SQSDefaultPolicy\",\"Statement\":[{\"Sid\":"
                        + "\"crossaccountpermission\",\"Effect\":\"Allow\",\"Principal\":{\"AWS\":"
                        + "\"arn:aws:iam::111111111111:root\"},\"Action\":\"SQS:ReceiveMessage\",\"Resource\":\"" + arn + "\"}]}");
        assertError(() -> f.engine.apply(new Command.AddPermission(q, "crossaccountpermission", List.of("1"), List.of("*"), f.now)).durable(),
                "InvalidParameterValue", "Value crossaccountpermission for parameter Label is invalid. Reason: Already exists.");
        f.engine.apply(new Command.AddPermission(q, "two", List.of("111111111111", "222222222222"), List.of("SendMessage", "DeleteMessage"), f.now)).durable();
        assertThat(EngineFixture.attributesAt(f.engine, q, List.of("Policy"), f.now).get("Policy")).contains(
                "{\"Sid\":\"two\",\"Effect\":\"Allow\",\"Principal\":{\"AWS\":[\"arn:aws:iam::111111111111:root\","
                        + "\"arn:aws:iam::222222222222:root\"]},\"Action\":[\"SQS:SendMessage\",\"SQS:DeleteMessage\"]");
        assertError(() -> f.engine.apply(new Command.RemovePermission(q, "crossaccountpermission2", f.now)).durable(), "InvalidParameterValue",
                "Value crossaccountpermission2 for parameter Label is invalid. Reason: can't find label.");
        f.engine.apply(new Command.RemovePermission(q, "crossaccountpermission", f.now)).durable();
        f.engine.apply(new Command.RemovePermission(q, "two", f.now)).durable();
        assertThat(EngineFixture.attributesAt(f.engine, q, List.of("Policy"), f.now)).isEmpty();
    }

    @Test
    void addPermissionKeepsThePolicyWithinSqsQuotas() {
        QueueRef q = f.create("quota");
        for (int i = 0; i < 20; i++) {
            f.engine.apply(new Command.AddPermission(q, "l" + i, List.of("111111111111"), List.of("SendMessage"), f.now)).durable();
        }
        assertError(() -> f.engine.apply(new Command.AddPermission(q, "l20", List.of("111111111111"), List.of("SendMessage"), f.now)).durable(),
                "OverLimit", "21 statements were found in the submitted policy, max allowed is 20");
        QueueRef r = f.create("quota2");
        List<String> accounts = java.util.stream.IntStream.range(0, 26)
                .mapToObj(i -> Long.toString(100000000000L + i)).toList();
        f.engine.apply(new Command.AddPermission(r, "a", accounts.subList(0, 25), List.of("SendMessage"), f.now)).durable();
        f.engine.apply(new Command.AddPermission(r, "b", accounts.subList(0, 25), List.of("SendMessage"), f.now)).durable();
        assertError(() -> f.engine.apply(new Command.AddPermission(r, "c", List.of("111111111111"), List.of("SendMessage"), f.now)).durable(),
                "OverLimit", "51 principals were found in the submitted policy, max allowed is 50");
        assertThat(EngineFixture.attributesAt(f.engine, r, List.of("Policy"), f.now).get("Policy")).doesNotContain("\"Sid\":\"c\"");
    }

    @Test
    void unknownQueueEverywhere() {
        QueueRef q = EngineFixture.ref("nope");
        assertError(() -> EngineFixture.attributesAt(f.engine, q, List.of("All"), f.now), "QueueDoesNotExist", null);
        assertError(() -> f.engine.apply(new Command.DeleteQueue(q, f.now)).durable(), "QueueDoesNotExist", null);
        assertError(() -> f.engine.apply(new Command.DeleteMessageBatch(q, List.of(), f.now)).durable(), "QueueDoesNotExist", null);
        assertError(() -> f.engine.apply(new Command.TagQueue(q, Map.of(), f.now)).durable(), "QueueDoesNotExist", null);
    }
}
