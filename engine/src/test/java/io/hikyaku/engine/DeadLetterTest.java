package io.hikyaku.engine;

import io.hikyaku.engine.command.Command;
import static io.hikyaku.engine.EngineFixture.ACCOUNT;
import static io.hikyaku.engine.EngineFixture.attrs;
import static io.hikyaku.engine.QueueLifecycleTest.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class DeadLetterTest {

    private final EngineFixture f = new EngineFixture();

    private static String arn(String name) {
        return "arn:aws:sqs:us-east-1:" + ACCOUNT + ":" + name;
    }

    private void setRedrive(QueueRef source, String dlqName, int max) {
        String json = "{\"deadLetterTargetArn\":\"" + arn(dlqName) + "\",\"maxReceiveCount\":\"" + max + "\"}";
        f.engine.apply(new Command.SetQueueAttributes(source, new AttributeUpdate(attrs("RedrivePolicy", json),
                new RedrivePolicy(arn(dlqName), max), null), f.now)).durable();
    }

    @Test
    void messageMovesToDlqWhenReceiveCountWouldExceedMax() {
        QueueRef dlq = f.create("dlq");
        QueueRef src = f.create("src");
        setRedrive(src, "dlq", 2);
        assertThat(EngineFixture.attributesAt(f.engine, src, List.of("RedrivePolicy"), f.now).get("RedrivePolicy"))
                .isEqualTo("{\"deadLetterTargetArn\":\"" + arn("dlq") + "\",\"maxReceiveCount\":2}");
        SendResult sent = f.send(src, "poison");
        f.advanceSeconds(1);
        assertThat(f.receive(src, 1, 0)).hasSize(1);
        assertThat(f.receive(src, 1, 0)).hasSize(1);
        assertThat(f.receive(src, 1, 0)).isEmpty();
        assertThat(f.counts(src)).isEqualTo(new QueueCounts(0, 0, 0));
        assertThat(f.engine.nextDeadline()).isEqualTo(0);
        assertThat(f.engine.tick(f.now).queuesWithNewVisibleMessages()).contains(dlq);
        ReceivedMessage m = f.receive(dlq, 1).get(0);
        assertThat(m.messageId()).isEqualTo(sent.messageId());
        assertThat(m.deadLetterQueueSourceArn()).isEqualTo(arn("src"));
        assertThat(m.sentTimestamp()).isEqualTo(EngineFixture.T0);
        // receives count across queues: two in the source, this one in the DLQ
        assertThat(m.approximateReceiveCount()).isEqualTo(3);
        assertThat(m.approximateFirstReceiveTimestamp()).isEqualTo(EngineFixture.T0 + 1000);
        assertThat(f.engine.listDeadLetterSourceQueues(dlq, null, null).queues()).extracting(QueueInfo::name)
                .containsExactly("src");
    }

    /**
     * Found by the simulator (seed 453): two messages past the DLQ's retention (a standard DLQ keeps
     * SentTimestamp) moved by one receive. The second move's timer pass expired the first one and
     * wrote that delete in its own batch, ahead of the receive's batch that stores the moved copy,
     * so the store kept a message memory had dropped, and a restart (after the DLQ's retention
     * period was made longer) brought it back.
     */
    @Test
    void expiredMessagesMovedTogetherStayGoneAfterARestart() {
        QueueRef dlq = f.create("dlq", "MessageRetentionPeriod", "60");
        QueueRef src = f.create("src");
        setRedrive(src, "dlq", 1);
        f.send(src, "a");
        f.send(src, "b");
        assertThat(f.receive(src, 10, 1)).hasSize(2);
        f.advanceSeconds(61);
        assertThat(f.receive(src, 10)).isEmpty(); // both move, and are past the DLQ's retention
        assertThat(f.counts(dlq)).isEqualTo(new QueueCounts(0, 0, 0));
        // a longer retention period now would let a message the store still holds count again
        f.engine.apply(new Command.SetQueueAttributes(dlq, AttributeUpdate.of(attrs("MessageRetentionPeriod", "3600")), f.now)).durable();
        assertThat(f.counts(dlq)).isEqualTo(new QueueCounts(0, 0, 0));
        f.restart();
        assertThat(f.counts(dlq)).isEqualTo(new QueueCounts(0, 0, 0));
        assertThat(f.counts(src)).isEqualTo(new QueueCounts(0, 0, 0));
    }

    @Test
    void createWithRedrivePolicyIsIdempotentWhateverTheNumberForm() {
        f.create("dlq");
        String asString = "{\"maxReceiveCount\":\"3\", \"deadLetterTargetArn\":\"" + arn("dlq") + "\"}";
        String asNumber = "{\"deadLetterTargetArn\":\"" + arn("dlq") + "\",\"maxReceiveCount\":3}";
        CreateQueue first = new CreateQueue(ACCOUNT, null, "src", new AttributeUpdate(attrs("RedrivePolicy", asString),
                new RedrivePolicy(arn("dlq"), 3), null), null, f.now);
        QueueRef src = f.engine.apply(new Command.CreateQueue(first)).durable().value().ref();
        assertThat(EngineFixture.attributesAt(f.engine, src, List.of("RedrivePolicy"), f.now)).containsEntry("RedrivePolicy", asNumber);
        CreateQueue again = new CreateQueue(ACCOUNT, null, "src", new AttributeUpdate(attrs("RedrivePolicy", asNumber),
                new RedrivePolicy(arn("dlq"), 3), null), null, f.now);
        assertThat(f.engine.apply(new Command.CreateQueue(again)).durable().value().name()).isEqualTo("src");
        CreateQueue other = new CreateQueue(ACCOUNT, null, "src", new AttributeUpdate(attrs("RedrivePolicy", asNumber),
                new RedrivePolicy(arn("dlq"), 4), null), null, f.now);
        assertError(() -> f.engine.apply(new Command.CreateQueue(other)).durable(), "QueueNameExists", null);
    }

    @Test
    void fifoDlqResetsSentTimestamp() {
        QueueRef dlq = f.createFifo("dlq.fifo");
        QueueRef src = f.createFifo("src.fifo");
        String json = "{\"deadLetterTargetArn\":\"" + arn("dlq.fifo") + "\",\"maxReceiveCount\":1}";
        f.engine.apply(new Command.SetQueueAttributes(src, new AttributeUpdate(attrs("RedrivePolicy", json),
                new RedrivePolicy(arn("dlq.fifo"), 1), null), f.now)).durable();
        f.sendFifo(src, "a", "G", "1");
        f.receive(src, 1, 0);
        f.advanceSeconds(3);
        assertThat(f.receive(src, 1)).isEmpty();
        ReceivedMessage m = f.receive(dlq, 1).get(0);
        assertThat(m.sentTimestamp()).isEqualTo(f.now);
        assertThat(m.groupId()).isEqualTo("G");
        assertThat(m.sequenceNumber()).isNotNull();
    }

    @Test
    void redrivePolicyIsValidated() {
        f.create("dlq");
        f.createFifo("dlq.fifo");
        QueueRef src = f.create("src");
        String json = "{}";
        assertError(() -> f.engine.apply(new Command.SetQueueAttributes(src, new AttributeUpdate(attrs("RedrivePolicy", json),
                new RedrivePolicy(arn("missing"), 3), null), f.now)).durable(), "InvalidParameterValue",
                "Value {} for parameter RedrivePolicy is invalid. Reason: Dead letter target does not exist.");
        assertError(() -> f.engine.apply(new Command.SetQueueAttributes(src, new AttributeUpdate(attrs("RedrivePolicy", json),
                new RedrivePolicy(arn("dlq"), 1001), null), f.now)).durable(), "InvalidParameterValue", null);
        assertError(() -> f.engine.apply(new Command.SetQueueAttributes(src, new AttributeUpdate(attrs("RedrivePolicy", json),
                new RedrivePolicy(arn("dlq.fifo"), 3), null), f.now)).durable(), "InvalidParameterValue", null);
        setRedrive(src, "dlq", 3);
        f.engine.apply(new Command.SetQueueAttributes(src, AttributeUpdate.of(attrs("RedrivePolicy", "")), f.now)).durable();
        assertThat(EngineFixture.attributesAt(f.engine, src, List.of("All"), f.now)).doesNotContainKey("RedrivePolicy");
        assertThat(f.engine.listDeadLetterSourceQueues(EngineFixture.ref("dlq"), null, null).queues()).isEmpty();
    }

    @Test
    void redriveAllowPolicyIsHonoured() {
        QueueRef dlq = f.create("dlq");
        QueueRef src = f.create("src");
        f.create("other");
        String allow = "{\"redrivePermission\":\"byQueue\",\"sourceQueueArns\":[\"" + arn("other") + "\"]}";
        f.engine.apply(new Command.SetQueueAttributes(dlq, new AttributeUpdate(attrs("RedriveAllowPolicy", allow), null,
                new RedriveAllowPolicy("byQueue", List.of(arn("other")))), f.now)).durable();
        assertThat(EngineFixture.attributesAt(f.engine, dlq, List.of("RedriveAllowPolicy"), f.now)).containsEntry("RedriveAllowPolicy", allow);
        assertError(() -> setRedrive(src, "dlq", 3), "InvalidParameterValue", null);
        setRedrive(EngineFixture.ref("other"), "dlq", 3);
        f.engine.apply(new Command.SetQueueAttributes(dlq, new AttributeUpdate(attrs("RedriveAllowPolicy", "{}"), null,
                new RedriveAllowPolicy("denyAll", null)), f.now)).durable();
        assertError(() -> setRedrive(src, "dlq", 3), "InvalidParameterValue", null);
        assertError(() -> f.engine.apply(new Command.SetQueueAttributes(dlq, new AttributeUpdate(attrs("RedriveAllowPolicy", "{}"), null,
                new RedriveAllowPolicy("byQueue", List.of())), f.now)).durable(), "InvalidParameterValue", null);
    }

    @Test
    void deadLetterSourcesArePaged() {
        QueueRef dlq = f.create("dlq");
        for (String n : List.of("s1", "s2", "s3")) {
            setRedrive(f.create(n), "dlq", 5);
        }
        QueuePage p = f.engine.listDeadLetterSourceQueues(dlq, 2, null);
        assertThat(p.queues()).extracting(QueueInfo::name).containsExactly("s1", "s2");
        assertThat(f.engine.listDeadLetterSourceQueues(dlq, 2, p.nextToken()).queues()).extracting(QueueInfo::name)
                .containsExactly("s3");
    }
}
