package io.hikyaku.engine;

import io.hikyaku.engine.command.Command;
import static io.hikyaku.engine.QueueLifecycleTest.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StandardMessagesTest {

    private final EngineFixture f = new EngineFixture();

    @Test
    void receiveHidesUntilVisibilityTimeoutExpires() {
        QueueRef q = f.create("q", "VisibilityTimeout", "10");
        SendResult sent = f.send(q, "hello");
        assertThat(sent.sequenceNumber()).isNull();
        List<ReceivedMessage> got = f.receive(q, 10);
        assertThat(got).hasSize(1);
        ReceivedMessage m = got.get(0);
        assertThat(m.messageId()).isEqualTo(sent.messageId());
        assertThat(m.approximateReceiveCount()).isEqualTo(1);
        assertThat(m.approximateFirstReceiveTimestamp()).isEqualTo(f.now);
        assertThat(m.sentTimestamp()).isEqualTo(EngineFixture.T0);
        assertThat(m.senderId()).isEqualTo(EngineFixture.ACCOUNT);
        assertThat(m.sequenceNumber()).isNull();
        assertThat(m.deduplicationId()).isNull();
        assertThat(f.counts(q)).isEqualTo(new QueueCounts(0, 1, 0));
        assertThat(f.engine.nextDeadline()).isEqualTo(EngineFixture.T0 + 10_000);
        f.advance(9_999);
        assertThat(f.receive(q, 10)).isEmpty();
        f.advance(1);
        Ticked t = f.engine.tick(f.now);
        assertThat(t.queuesWithNewVisibleMessages()).containsExactly(q);
        assertThat(f.counts(q)).isEqualTo(new QueueCounts(1, 0, 0));
        ReceivedMessage again = f.receive(q, 10).get(0);
        assertThat(again.approximateReceiveCount()).isEqualTo(2);
        assertThat(again.approximateFirstReceiveTimestamp()).isEqualTo(EngineFixture.T0);
        assertThat(again.receiptHandle()).isNotEqualTo(m.receiptHandle());
    }

    @Test
    void zeroVisibilityTimeoutLeavesTheMessageVisible() {
        QueueRef q = f.create("q");
        f.send(q, "a");
        assertThat(f.receive(q, 10, 0)).hasSize(1);
        assertThat(f.counts(q)).isEqualTo(new QueueCounts(1, 0, 0));
        assertThat(f.receive(q, 10, 0).get(0).approximateReceiveCount()).isEqualTo(2);
    }

    @Test
    void lazyProcessingWithoutTick() {
        QueueRef q = f.create("q");
        f.send(q, "a");
        f.receive(q, 1, 5);
        f.advanceSeconds(5);
        assertThat(f.receive(q, 1)).hasSize(1);
    }

    @Test
    void delaysFromQueueAndMessage() {
        QueueRef q = f.create("q", "DelaySeconds", "5");
        f.send(q, "queue-delay");
        f.engine.apply(new Command.SendMessage(q, new SendMessage("msg-delay", null, null, 2, null, null, "s", f.nextId()), f.now)).durable();
        f.engine.apply(new Command.SendMessage(q, new SendMessage("no-delay", null, null, 0, null, null, "s", f.nextId()), f.now)).durable();
        assertThat(f.counts(q)).isEqualTo(new QueueCounts(1, 0, 2));
        assertThat(f.bodies(f.receive(q, 10))).containsExactly("no-delay");
        f.advanceSeconds(2);
        assertThat(f.bodies(f.receive(q, 10))).containsExactly("msg-delay");
        f.advanceSeconds(3);
        assertThat(f.bodies(f.receive(q, 10))).containsExactly("queue-delay");
        assertError(() -> f.engine.apply(new Command.SendMessage(q, new SendMessage("x", null, null, 901, null, null, "s", f.nextId()), f.now)).durable(),
                "InvalidParameterValue", null);
    }

    @Test
    void fourteenDayRetentionExpiresVisibleMessages() {
        QueueRef q = f.create("q", "MessageRetentionPeriod", "1209600");
        f.send(q, "a");
        assertThat(f.engine.nextDeadline()).isEqualTo(EngineFixture.T0 + 1_209_600_000L);
        f.advance(1_209_600_000L - 1);
        assertThat(f.counts(q)).isEqualTo(new QueueCounts(1, 0, 0));
        f.advance(1);
        f.engine.tick(f.now);
        assertThat(f.counts(q)).isEqualTo(new QueueCounts(0, 0, 0));
        assertThat(f.engine.nextDeadline()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void retentionAlsoExpiresInFlightAndDelayedMessages() {
        QueueRef q = f.create("q", "MessageRetentionPeriod", "60");
        f.send(q, "inflight");
        f.receive(q, 1, 120);
        f.engine.apply(new Command.SendMessage(q, new SendMessage("delayed", null, null, 900, null, null, "s", f.nextId()), f.now)).durable();
        f.advance(59_999);
        assertThat(f.counts(q)).isEqualTo(new QueueCounts(0, 1, 1));
        f.advance(1);
        assertThat(f.counts(q)).isEqualTo(new QueueCounts(0, 0, 0));
    }

    @Test
    void shorterRetentionExpiresOldMessagesAtOnce() {
        QueueRef q = f.create("q");
        f.send(q, "old");
        f.advanceSeconds(120);
        f.send(q, "new");
        f.engine.apply(new Command.SetQueueAttributes(q, AttributeUpdate.of(Map.of("MessageRetentionPeriod", "60")), f.now)).durable();
        assertThat(f.bodies(f.receive(q, 10))).containsExactly("new");
    }

    @Test
    void deleteAcceptsOldHandlesAndRepeats() {
        QueueRef q = f.create("q");
        f.send(q, "a");
        ReceivedMessage first = f.receive(q, 1, 0).get(0);
        ReceivedMessage second = f.receive(q, 1, 30).get(0);
        assertThat(second.approximateReceiveCount()).isEqualTo(2);
        f.delete(q, first);
        assertThat(f.counts(q)).isEqualTo(new QueueCounts(0, 0, 0));
        f.delete(q, first);
        f.delete(q, second);
    }

    @Test
    void malformedHandlesAreRejected() {
        QueueRef q = f.create("q");
        QueueRef other = f.create("other");
        f.send(q, "a");
        ReceivedMessage m = f.receive(q, 1).get(0);
        assertError(() -> f.engine.apply(new Command.DeleteMessage(q, "garbage", f.now)).durable(), "ReceiptHandleIsInvalid",
                "The input receipt handle \"garbage\" is not a valid receipt handle.");
        assertError(() -> f.engine.apply(new Command.ChangeVisibility(q, "INVALID", 5, f.now)).durable(), "ReceiptHandleIsInvalid", null);
        assertError(() -> f.engine.apply(new Command.DeleteMessage(other, m.receiptHandle(), f.now)).durable(), "ReceiptHandleIsInvalid", null);
        String tampered = m.receiptHandle().substring(0, 20) + (m.receiptHandle().charAt(20) == 'A' ? 'B' : 'A')
                + m.receiptHandle().substring(21);
        assertError(() -> f.engine.apply(new Command.DeleteMessage(q, tampered, f.now)).durable(), "ReceiptHandleIsInvalid", null);
    }

    @Test
    void changeVisibilityRulesAndTwelveHourCap() {
        QueueRef q = f.create("q");
        f.send(q, "a");
        ReceivedMessage m = f.receive(q, 1).get(0);
        f.engine.apply(new Command.ChangeVisibility(q, m.receiptHandle(), 43200, f.now)).durable();
        f.advanceSeconds(100);
        assertError(() -> f.engine.apply(new Command.ChangeVisibility(q, m.receiptHandle(), 43200, f.now)).durable(), "InvalidParameterValue",
                "Value 43200 for parameter VisibilityTimeout is invalid. Reason: Total VisibilityTimeout for the message is beyond the limit [43200 seconds]");
        f.engine.apply(new Command.ChangeVisibility(q, m.receiptHandle(), 43100, f.now)).durable();
        assertError(() -> f.engine.apply(new Command.ChangeVisibility(q, m.receiptHandle(), 43201, f.now)).durable(), "InvalidParameterValue", null);
        f.engine.apply(new Command.ChangeVisibility(q, m.receiptHandle(), 0, f.now)).durable();
        assertThat(f.counts(q)).isEqualTo(new QueueCounts(1, 0, 0));
        ReceivedMessage again = f.receive(q, 1).get(0);
        f.engine.apply(new Command.ChangeVisibility(q, again.receiptHandle(), 0, f.now)).durable();
        // an older receive's handle of a message that is not in flight
        assertError(() -> f.engine.apply(new Command.ChangeVisibility(q, m.receiptHandle(), 10, f.now)).durable(), "MessageNotInflight",
                "The specified message isn't in flight.");
        again = f.receive(q, 1).get(0);
        f.delete(q, again);
        String deleted = again.receiptHandle();
        assertError(() -> f.engine.apply(new Command.ChangeVisibility(q, deleted, 10, f.now)).durable(), "InvalidParameterValue",
                "Value " + deleted + " for parameter ReceiptHandle is invalid. Reason: Message does not exist or is not available for visibility timeout change.");
    }

    @Test
    void visibilityChangeFromEachReceiveStartsAFreshCap() {
        QueueRef q = f.create("q");
        f.send(q, "a");
        f.receive(q, 1, 0);
        f.advanceSeconds(40000);
        ReceivedMessage m = f.receive(q, 1).get(0);
        f.engine.apply(new Command.ChangeVisibility(q, m.receiptHandle(), 43200, f.now)).durable();
    }

    @Test
    void sizeLimitCountsBodyAndAttributes() {
        QueueRef q = f.create("q", "MaximumMessageSize", "1024");
        f.send(q, "x".repeat(1024));
        Map<String, MessageAttribute> attrs = Map.of("ab", new MessageAttribute("String", "c", null));
        SendMessage tooBig = new SendMessage("x".repeat(1020), attrs, null, null, null, null, "s", f.nextId());
        assertError(() -> f.engine.apply(new Command.SendMessage(q, tooBig, f.now)).durable(), "InvalidParameterValue",
                "One or more parameters are invalid. Reason: Message must be shorter than 1024 bytes.");
        SendMessage fits = new SendMessage("x".repeat(1015), attrs, null, null, null, null, "s", f.nextId());
        List<BatchOutcome<SendResult>> out = f.engine.apply(new Command.SendMessageBatch(q, List.of(fits, tooBig), f.now)).durable().value();
        assertThat(out.get(0).ok()).isTrue();
        assertThat(out.get(1).error().getMessage()).isEqualTo(
                "One or more parameters cannot be validated. Reason: Message must be shorter than 1024 bytes.");
        assertThat(f.counts(q).visible()).isEqualTo(2);
        assertError(() -> f.engine.apply(new Command.SendMessage(q, new SendMessage("", null, null, null, null, null, "s", f.nextId()), f.now)).durable(),
                "MissingRequiredParameterException", "The request must contain the parameter MessageBody.");
    }

    @Test
    void attributesAndTraceHeaderRoundTrip() {
        QueueRef q = f.create("q");
        Map<String, MessageAttribute> attrs = new java.util.LinkedHashMap<>();
        attrs.put("s", new MessageAttribute("String", "v", null));
        attrs.put("b", new MessageAttribute("Binary", null, new byte[] {1, 2, 3}));
        f.engine.apply(new Command.SendMessage(q, new SendMessage("body", attrs, "Root=1-abc", null, "tenant", null, "sender", f.nextId()), f.now)).durable();
        ReceivedMessage m = f.receive(q, 1).get(0);
        assertThat(m.attributes()).containsOnlyKeys("s", "b");
        assertThat(m.attributes().get("b").binaryValue()).containsExactly(1, 2, 3);
        assertThat(m.attributes().get("s").stringValue()).isEqualTo("v");
        assertThat(m.awsTraceHeader()).isEqualTo("Root=1-abc");
        assertThat(m.groupId()).isEqualTo("tenant");
        assertThat(m.sequenceNumber()).isNull();
    }

    @Test
    void receiveValidatesArguments() {
        QueueRef q = f.create("q");
        assertError(() -> f.receive(q, 11), "InvalidParameterValue",
                "Value 11 for parameter MaxNumberOfMessages is invalid. Reason: Must be between 1 and 10, if provided.");
        assertError(() -> f.receive(q, 1, 43201), "InvalidParameterValue", null);
        assertError(() -> f.engine.apply(new Command.SendMessage(q, f.message("x", null, "dedup"), f.now)).durable(), "InvalidParameterValue", null);
    }

    @Test
    void receivesOldestFirstUpToTen() {
        QueueRef q = f.create("q");
        for (int i = 0; i < 15; i++) {
            f.send(q, "m" + i);
        }
        assertThat(f.bodies(f.receive(q, 10))).containsExactly("m0", "m1", "m2", "m3", "m4", "m5", "m6", "m7", "m8", "m9");
        assertThat(f.bodies(f.receive(q, 10))).containsExactly("m10", "m11", "m12", "m13", "m14");
    }

    @Test
    void purgeRemovesEverythingOncePerMinute() {
        QueueRef q = f.create("q");
        f.send(q, "visible");
        f.engine.apply(new Command.SendMessage(q, new SendMessage("delayed", null, null, 60, null, null, "s", f.nextId()), f.now)).durable();
        f.send(q, "inflight");
        f.receive(q, 1);
        f.engine.apply(new Command.PurgeQueue(q, f.now)).durable();
        assertThat(f.counts(q)).isEqualTo(new QueueCounts(0, 0, 0));
        f.advanceSeconds(59);
        assertError(() -> f.engine.apply(new Command.PurgeQueue(q, f.now)).durable(), "PurgeQueueInProgress",
                "Only one PurgeQueue operation on q is allowed every 60 seconds.");
        f.advanceSeconds(1);
        f.engine.apply(new Command.PurgeQueue(q, f.now)).durable();
    }

    @Test
    void inFlightLimitGivesOverLimitOnStandardQueues() {
        assertThat(QueueState.INFLIGHT_LIMIT).isEqualTo(120_000);
        f.engine = new QueueEngine(f.store, "us-east-1", 25);
        QueueRef q = f.create("q");
        for (int i = 0; i < 26; i++) {
            f.send(q, "m" + i);
        }
        assertThat(f.receive(q, 10)).hasSize(10);
        assertThat(f.receive(q, 10)).hasSize(10);
        assertThat(f.receive(q, 10)).hasSize(5);
        assertThat(f.counts(q)).isEqualTo(new QueueCounts(1, 25, 0));
        assertError(() -> f.receive(q, 1), "OverLimit",
                "Too many messages have been received without being deleted. Please delete your received messages or let them timeout before receiving more.");
    }

    @Test
    void inFlightLimitOnFifoQueuesReturnsFewerMessages() {
        f.engine = new QueueEngine(f.store, "us-east-1", 5);
        QueueRef q = f.createFifo("q.fifo");
        for (int i = 0; i < 8; i++) {
            f.sendFifo(q, "m" + i, "g" + i, "d" + i);
        }
        assertThat(f.receive(q, 3)).hasSize(3);
        assertThat(f.receive(q, 10)).hasSize(2);
        assertThat(f.receive(q, 10)).isEmpty();
        assertThat(f.counts(q)).isEqualTo(new QueueCounts(3, 5, 0));
    }

    @Test
    void realInFlightLimitIs120kOnStandardQueues() {
        QueueRef q = f.create("q");
        for (int i = 0; i < QueueState.INFLIGHT_LIMIT; i++) {
            f.engine.apply(new Command.SendMessage(q, new SendMessage("m", null, null, null, null, null, "s", "id" + i), f.now)).durable();
        }
        f.send(q, "one more");
        for (int i = 0; i < QueueState.INFLIGHT_LIMIT / 10; i++) {
            f.receive(q, 10);
        }
        assertThat(f.counts(q)).isEqualTo(new QueueCounts(1, QueueState.INFLIGHT_LIMIT, 0));
        assertError(() -> f.receive(q, 1), "OverLimit", null);
    }

    // sqs-behaviours 81: after the visibility expired, the latest receive's handle still changes it (200);
    // the message goes back in flight for the new timeout, counted from the change.
    @Test
    void b81_changeVisibilityAfterExpiryPutsTheMessageBackInFlight() {
        QueueRef q = f.create("q");
        f.send(q, "a");
        ReceivedMessage m = f.receive(q, 1, 1).get(0);
        f.advanceSeconds(2);
        assertThat(f.counts(q)).isEqualTo(new QueueCounts(1, 0, 0));
        f.engine.apply(new Command.ChangeVisibility(q, m.receiptHandle(), 2, f.now)).durable();
        assertThat(f.counts(q)).isEqualTo(new QueueCounts(0, 1, 0));
        assertThat(f.receive(q, 10)).isEmpty();
        f.advance(1_999);
        assertThat(f.receive(q, 10)).isEmpty();
        f.advance(1);
        ReceivedMessage again = f.receive(q, 10).get(0);
        assertThat(again.approximateReceiveCount()).isEqualTo(2);
        f.delete(q, again);
        assertThat(f.counts(q)).isEqualTo(new QueueCounts(0, 0, 0));
    }

    @Test
    void b81_aFifoQueueStillRefusesAMessageThatIsNotInFlight() {
        QueueRef q = f.createFifo("q.fifo");
        f.sendFifo(q, "a", "g", "1");
        ReceivedMessage m = f.receive(q, 1, 1).get(0);
        f.advanceSeconds(2);
        assertError(() -> f.engine.apply(new Command.ChangeVisibility(q, m.receiptHandle(), 2, f.now)).durable(), "MessageNotInflight",
                "The specified message isn't in flight.");
    }
}
