package io.hikyaku.engine;

import io.hikyaku.engine.command.Command;
import static io.hikyaku.engine.QueueLifecycleTest.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class FifoTest {

    private final EngineFixture f = new EngineFixture();

    @Test
    void aGroupDeliversInOrderUpToItsFirstInFlightMessage() {
        QueueRef q = f.createFifo("q.fifo");
        f.sendFifo(q, "a1", "A", "1");
        f.sendFifo(q, "b1", "B", "2");
        f.sendFifo(q, "a2", "A", "3");
        f.sendFifo(q, "a3", "A", "4");
        f.sendFifo(q, "b2", "B", "5");
        List<ReceivedMessage> first = f.receive(q, 2);
        assertThat(f.bodies(first)).containsExactly("a1", "a2");
        List<ReceivedMessage> second = f.receive(q, 10);
        assertThat(f.bodies(second)).containsExactly("b1", "b2");
        assertThat(f.receive(q, 10)).isEmpty();
        f.delete(q, first.get(0));
        assertThat(f.receive(q, 10)).isEmpty(); // a2 in flight holds a3 back
        f.delete(q, first.get(1));
        assertThat(f.bodies(f.receive(q, 10))).containsExactly("a3");
    }

    // sqs-behaviours 78 case 1: foo, bar, baz received together; one is extended; the others expire.
    @Test
    void b78_visibleMessagesBeforeTheFirstInFlightOneAreDelivered() {
        for (int extended = 0; extended < 3; extended++) {
            QueueRef q = f.createFifo("ext" + extended + ".fifo");
            f.sendFifo(q, "foo", "g", "1");
            f.sendFifo(q, "bar", "g", "2");
            f.sendFifo(q, "baz", "g", "3");
            List<ReceivedMessage> all = f.receive(q, 10, 1);
            f.engine.apply(new Command.ChangeVisibility(q, all.get(extended).receiptHandle(), 4, f.now)).durable();
            f.advance(2_500);
            assertThat(f.bodies(f.receive(q, 5))).containsExactlyElementsOf(List.of("foo", "bar").subList(0, extended));
        }
    }

    // 78 case 2: a message made visible again by ChangeMessageVisibility(0) is served after a group
    // whose oldest message has been waiting longer; the in-flight g1-m2 stays held.
    @Test
    void b78_changeVisibilityToZeroMakesTheMessageAvailableFromThatMoment() {
        QueueRef q = f.createFifo("q.fifo", "VisibilityTimeout", "30");
        f.sendFifo(q, "g1-m1", "g1", "1");
        f.sendFifo(q, "g1-m2", "g1", "2");
        f.sendFifo(q, "g2-m1", "g2", "3");
        List<ReceivedMessage> got = f.receive(q, 2);
        assertThat(f.bodies(got)).containsExactly("g1-m1", "g1-m2");
        f.advance(10);
        f.engine.apply(new Command.ChangeVisibility(q, got.get(0).receiptHandle(), 0, f.now)).durable();
        assertThat(f.bodies(f.receive(q, 3))).containsExactly("g2-m1", "g1-m1");
    }

    // 78 case 3: after a partial delete the group waits for its in-flight head.
    @Test
    void b78_partialDeleteHoldsTheGroupBehindItsInFlightHead() {
        QueueRef q = f.createFifo("q.fifo");
        f.sendFifo(q, "g1-m1", "g1", "1");
        f.sendFifo(q, "g1-m2", "g1", "2");
        f.sendFifo(q, "g2-m1", "g2", "3");
        f.sendFifo(q, "g2-m2", "g2", "4");
        f.sendFifo(q, "g3-m1", "g3", "5");
        List<ReceivedMessage> got = f.receive(q, 2);
        f.delete(q, got.get(0));
        assertThat(f.bodies(f.receive(q, 10))).containsExactly("g2-m1", "g2-m2", "g3-m1");
    }

    // 79, the VisibilityTimeout=0 recording.
    @Test
    void b79_receiveWithZeroVisibilityTimeout() {
        QueueRef q = f.createFifo("q.fifo");
        String[][] sends = {{"g1-m1", "g1"}, {"g2-m1", "g2"}, {"g2-m2", "g2"}, {"g3-m1", "g3"}, {"g1-m2", "g1"}};
        int d = 0;
        for (String[] s : sends) {
            f.sendFifo(q, s[0], s[1], Integer.toString(++d));
            f.advance(1);
        }
        assertThat(f.bodies(f.receive(q, 3, 0))).containsExactly("g1-m1", "g1-m2", "g2-m1");
        f.advance(1);
        assertThat(f.bodies(f.receive(q, 10, 0))).containsExactly("g3-m1", "g1-m1", "g1-m2", "g2-m1", "g2-m2");
    }

    // 79, the shared-timeout recording: the same also when every call happens in the same millisecond.
    @Test
    void b79_expiredVisibilityCountsFromItsEnd() {
        for (int step : new int[] {0, 1}) {
            QueueRef q = f.createFifo("s" + step + ".fifo", "VisibilityTimeout", "1");
            for (int i = 1; i <= 4; i++) {
                f.sendFifo(q, "g1-m" + i, "g1", "a" + i);
                f.advance(step);
            }
            f.sendFifo(q, "g2-m1", "g2", "b");
            f.advance(step);
            f.sendFifo(q, "g3-m1", "g3", "c");
            f.advance(step);
            assertThat(f.bodies(f.receive(q, 2))).containsExactly("g1-m1", "g1-m2");
            f.advance(step);
            assertThat(f.bodies(f.receive(q, 1))).containsExactly("g2-m1");
            f.advanceSeconds(2);
            assertThat(f.bodies(f.receive(q, 10, 0)))
                    .containsExactly("g3-m1", "g1-m1", "g1-m2", "g1-m3", "g1-m4", "g2-m1");
        }
    }

    // 79, the delete recording (content-based deduplication drops the repeated g1-m2).
    @Test
    void b79_deletedHeadsLetTheGroupsFollowTheirNextMessage() {
        QueueRef q = f.createFifo("q.fifo", "ContentBasedDeduplication", "true");
        String[][] sends = {{"g1-m1", "g1"}, {"g2-m1", "g2"}, {"g1-m2", "g1"}, {"g2-m2", "g2"}, {"g1-m2", "g1"},
                {"g1-m3", "g1"}, {"g1-m4", "g1"}, {"g3-m1", "g3"}};
        for (String[] s : sends) {
            f.sendFifo(q, s[0], s[1], null);
            f.advance(1);
        }
        List<ReceivedMessage> got = f.receive(q, 2);
        assertThat(f.bodies(got)).containsExactly("g1-m1", "g1-m2");
        got.forEach(m -> f.delete(q, m));
        assertThat(f.bodies(f.receive(q, 10))).containsExactly("g2-m1", "g2-m2", "g1-m3", "g1-m4", "g3-m1");
    }

    // 79 survives a restart: the loader restores when each message became visible.
    @Test
    void b79_orderAcrossGroupsSurvivesARestart() {
        QueueRef q = f.createFifo("q.fifo", "VisibilityTimeout", "30");
        f.sendFifo(q, "g1-m1", "g1", "1");
        f.sendFifo(q, "g1-m2", "g1", "2");
        f.advance(5);
        f.sendFifo(q, "g2-m1", "g2", "3");
        f.advance(5);
        List<ReceivedMessage> got = f.receive(q, 1);
        f.advance(5);
        f.engine.apply(new Command.ChangeVisibility(q, got.get(0).receiptHandle(), 0, f.now)).durable();
        f.advance(5);
        f.restart();
        assertThat(f.bodies(f.receive(q, 10))).containsExactly("g2-m1", "g1-m1", "g1-m2");
    }

    @Test
    void expiredVisibilityRedeliversTheSameGroupInOrder() {
        QueueRef q = f.createFifo("q.fifo", "VisibilityTimeout", "5");
        f.sendFifo(q, "a1", "A", "1");
        f.sendFifo(q, "a2", "A", "2");
        ReceivedMessage m = f.receive(q, 1).get(0);
        assertThat(m.body()).isEqualTo("a1");
        assertThat(m.groupId()).isEqualTo("A");
        assertThat(m.deduplicationId()).isEqualTo("1");
        f.advanceSeconds(5);
        assertThat(f.bodies(f.receive(q, 10))).containsExactly("a1", "a2");
        assertError(() -> f.delete(q, m), "InvalidParameterValue",
                "Value " + m.receiptHandle() + " for parameter ReceiptHandle is invalid. Reason: The receipt handle has expired.");
    }

    @Test
    void sequenceNumbersAreLargeAndIncreasing() {
        QueueRef q = f.createFifo("q.fifo");
        String s1 = f.sendFifo(q, "a", "A", "1").sequenceNumber();
        String s2 = f.sendFifo(q, "b", "B", "2").sequenceNumber();
        assertThat(s1).hasSize(20);
        assertThat(new BigInteger(s2)).isGreaterThan(new BigInteger(s1));
        assertThat(f.receive(q, 1).get(0).sequenceNumber()).isEqualTo(s1);
    }

    /** Like SQS's: 20 digits, not consecutive, the queue's creation time in the high digits, above the old padded-counter form. */
    @Test
    void sequenceNumbersLookLikeAwsAndStayAboveTheOldForm() {
        f.advance(1_765_000_000_000L - f.now); // an ordinary epoch time: the high digits carry it
        QueueRef q = f.createFifo("aws.fifo");
        List<BigInteger> seen = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            f.advance(7);
            String s = f.sendFifo(q, "m" + i, "G", "d" + i).sequenceNumber();
            assertThat(s).hasSize(20).matches("[1-9][0-9]{19}").doesNotStartWith("10000000000");
            assertThat(s).startsWith("11765000000");
            seen.add(new BigInteger(s));
        }
        for (int i = 1; i < seen.size(); i++) {
            assertThat(seen.get(i)).isGreaterThan(seen.get(i - 1).add(BigInteger.ONE));
        }
        assertThat(seen.get(0)).isGreaterThan(new BigInteger(SendRules.sequenceNumber(1_000_000_000L))); // the stored form
        f.restart();
        BigInteger afterRestart = new BigInteger(f.sendFifo(q, "late", "G", "late").sequenceNumber());
        assertThat(afterRestart).isGreaterThan(seen.get(seen.size() - 1));
        assertThat(f.receive(q, 1).get(0).sequenceNumber()).isEqualTo(seen.get(0).toString());
    }

    @Test
    void deduplicationWindowIsFiveMinutes() {
        QueueRef q = f.createFifo("q.fifo");
        SendResult first = f.sendFifo(q, "a", "A", "d");
        f.advance(299_999);
        SendResult dup = f.sendFifo(q, "other body", "B", "d");
        assertThat(dup).isEqualTo(first);
        assertThat(f.counts(q).visible()).isEqualTo(1);
        f.advance(1);
        SendResult fresh = f.sendFifo(q, "a", "A", "d");
        assertThat(fresh.messageId()).isNotEqualTo(first.messageId());
        assertThat(f.counts(q).visible()).isEqualTo(2);
    }

    @Test
    void contentBasedDeduplicationUsesBodyHash() {
        QueueRef q = f.createFifo("q.fifo", "ContentBasedDeduplication", "true");
        SendResult a = f.sendFifo(q, "same", "A", null);
        assertThat(f.sendFifo(q, "same", "B", null)).isEqualTo(a);
        assertThat(f.sendFifo(q, "different", "A", null)).isNotEqualTo(a);
        assertThat(f.receive(q, 1).get(0).deduplicationId())
                .isEqualTo("0967115f2813a3541eaef77de9d9d5773f1c0c04314b0bbfe4ff3b3b1c55b5d5");
    }

    @Test
    void messageGroupScopeDeduplicatesPerGroup() {
        QueueRef q = f.createFifo("q.fifo", "DeduplicationScope", "messageGroup", "FifoThroughputLimit", "perMessageGroupId");
        SendResult a = f.sendFifo(q, "x", "A", "d");
        assertThat(f.sendFifo(q, "x", "B", "d")).isNotEqualTo(a);
        assertThat(f.sendFifo(q, "x", "A", "d")).isEqualTo(a);
        assertError(() -> f.createFifo("bad.fifo", "FifoThroughputLimit", "perMessageGroupId"), "InvalidAttributeValue", null);
    }

    @Test
    void fifoSendRules() {
        QueueRef q = f.createFifo("q.fifo", "DelaySeconds", "2");
        assertError(() -> f.sendFifo(q, "a", null, "1"), "MissingRequiredParameterException",
                "The request must contain the parameter MessageGroupId.");
        assertError(() -> f.sendFifo(q, "a", "A", null), "InvalidParameterValue",
                "The queue should either have ContentBasedDeduplication enabled or MessageDeduplicationId provided explicitly");
        assertError(() -> f.engine.apply(new Command.SendMessage(q, new SendMessage("a", null, null, 2, "A", "1", "s", f.nextId()), f.now)).durable(),
                "InvalidParameterValue",
                "Value 2 for parameter DelaySeconds is invalid. Reason: The request include parameter that is not valid for this queue type.");
        f.engine.apply(new Command.SendMessage(q, new SendMessage("a", null, null, 0, "A", "1", "s", f.nextId()), f.now)).durable();
        assertThat(f.counts(q)).isEqualTo(new QueueCounts(0, 0, 1));
        f.advanceSeconds(2);
        assertThat(f.receive(q, 1)).hasSize(1);
        assertError(() -> f.engine.apply(new Command.SendMessageBatch(q, List.of(f.message("a", null, "9")), f.now)).durable(), "InvalidParameterValue",
                "The request must contain the parameter MessageGroupId.");
        assertError(() -> f.engine.apply(new Command.SendMessageBatch(q, List.of(f.message("a", "A", null)), f.now)).durable(), "InvalidParameterValue",
                "The queue should either have ContentBasedDeduplication enabled or MessageDeduplicationId provided explicitly");
    }

    @Test
    void receiveRequestAttemptIdReturnsTheSameMessagesAndHandles() {
        QueueRef q = f.createFifo("q.fifo");
        f.sendFifo(q, "a1", "A", "1");
        f.sendFifo(q, "a2", "A", "2");
        f.sendFifo(q, "b1", "B", "3");
        List<ReceivedMessage> first = f.engine.apply(new Command.ReceiveMessage(q, new ReceiveMessages(2, null, "att", 11, f.now))).durable().value();
        f.advanceSeconds(10);
        List<ReceivedMessage> retry = f.engine.apply(new Command.ReceiveMessage(q, new ReceiveMessages(2, null, "att", 12, f.now))).durable().value();
        assertThat(retry).extracting(ReceivedMessage::receiptHandle)
                .containsExactlyElementsOf(first.stream().map(ReceivedMessage::receiptHandle).toList());
        // the retry reset the visibility timeout: still in flight 30 s after the retry - 1 ms
        f.advance(29_999);
        assertThat(f.counts(q).notVisible()).isEqualTo(2);
        // after a delete the attempt id no longer replays
        f.delete(q, first.get(0));
        List<ReceivedMessage> other = f.engine.apply(new Command.ReceiveMessage(q, new ReceiveMessages(2, null, "att", 13, f.now))).durable().value();
        assertThat(f.bodies(other)).containsExactly("b1");
    }

    @Test
    void attemptIdExpiresAfterFiveMinutes() {
        QueueRef q = f.createFifo("q.fifo", "VisibilityTimeout", "600");
        f.sendFifo(q, "a1", "A", "1");
        f.sendFifo(q, "b1", "B", "2");
        f.engine.apply(new Command.ReceiveMessage(q, new ReceiveMessages(1, null, "att", 11, f.now))).durable();
        f.advance(300_000);
        List<ReceivedMessage> later = f.engine.apply(new Command.ReceiveMessage(q, new ReceiveMessages(1, null, "att", 12, f.now))).durable().value();
        assertThat(f.bodies(later)).containsExactly("b1");
    }

    @Test
    void purgeClearsDeduplication() {
        QueueRef q = f.createFifo("q.fifo");
        SendResult a = f.sendFifo(q, "a", "A", "d");
        f.engine.apply(new Command.PurgeQueue(q, f.now)).durable();
        assertThat(f.sendFifo(q, "a", "A", "d").messageId()).isNotEqualTo(a.messageId());
    }

    // sqs-behaviours 80: right after DeduplicationScope changes from queue to messageGroup, deduplication
    // is still queue-wide (the change shows at once in the attributes, and takes 60 s to apply).
    @Test
    void b80_aDeduplicationScopeChangeAppliesAfterItPropagates() {
        QueueRef q = f.createFifo("q.fifo", "DeduplicationScope", "queue");
        f.sendFifo(q, "m1", "group1", "dedup_1");
        f.engine.apply(new Command.SetQueueAttributes(q, AttributeUpdate.of(EngineFixture.attrs("DeduplicationScope", "messageGroup",
                "FifoThroughputLimit", "perMessageGroupId")), f.now)).durable();
        assertThat(EngineFixture.attributesAt(f.engine, q, List.of("All"), f.now))
                .containsEntry("DeduplicationScope", "messageGroup").containsEntry("FifoThroughputLimit", "perMessageGroupId");
        f.receive(q, 10).forEach(m -> f.delete(q, m));
        f.advance(2_000);
        f.sendFifo(q, "m2", "group3", "dedup_1");
        assertThat(f.receive(q, 10)).isEmpty();
        f.sendFifo(q, "m3", "group4", "dedup_2");
        List<ReceivedMessage> got = f.receive(q, 10);
        assertThat(f.bodies(got)).containsExactly("m3");
        f.delete(q, got.get(0));
        f.sendFifo(q, "m4", "group5", "dedup_2");
        assertThat(f.receive(q, 10)).isEmpty();
        f.restart(); // the pending change survives a restart
        f.sendFifo(q, "m5", "group6", "dedup_2");
        assertThat(f.receive(q, 10)).isEmpty();
        f.advance(58_000); // 60 s after the change: per group from now on
        f.sendFifo(q, "m6", "group7", "dedup_2");
        assertThat(f.bodies(f.receive(q, 10))).containsExactly("m6");
    }

    @Test
    void withoutCooldownsADeduplicationScopeChangeAppliesAtOnce() {
        f.engine.cooldowns(false);
        QueueRef q = f.createFifo("q.fifo");
        f.sendFifo(q, "m1", "group1", "d");
        f.engine.apply(new Command.SetQueueAttributes(q, AttributeUpdate.of(EngineFixture.attrs("DeduplicationScope", "messageGroup")), f.now)).durable();
        f.sendFifo(q, "m2", "group2", "d");
        assertThat(f.bodies(f.receive(q, 10))).containsExactly("m1", "m2");
    }
}
