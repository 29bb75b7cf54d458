package io.hikyaku.engine;

import io.hikyaku.engine.command.Command;
import static io.hikyaku.engine.EngineFixture.ACCOUNT;
import static io.hikyaku.engine.EngineFixture.attrs;
import static io.hikyaku.engine.QueueLifecycleTest.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** State written through a MemoryStore is seen identically by a new engine over the same store. */
class RestartTest {

    private final EngineFixture f = new EngineFixture();

    private static String arn(String name) {
        return "arn:aws:sqs:us-east-1:" + ACCOUNT + ":" + name;
    }

    @Test
    void loaderReadsOnlyMessageHeadsAndFallsBackForLongGroupIds() {
        QueueRef fair = f.create("fair");
        QueueRef fifo = f.createFifo("heads.fifo");
        String longGroup = "g\u00e9".repeat(64); // 128 chars, 192 UTF-8 bytes: the head does not fit in HEAD_BYTES
        String body = "b".repeat(300);
        for (int i = 0; i < 5; i++) {
            f.sendFifo(fair, body + i, i % 2 == 0 ? longGroup : "short", null);
            f.sendFifo(fifo, body + i, i % 2 == 0 ? longGroup : "short", "d" + i);
            f.send(fair, body + "plain" + i);
        }
        List<ReceivedMessage> held = f.receive(fifo, 10, 30);
        f.advance(1000);
        Map<Long, String> fairBefore = heads(f.engine.queues.require(fair));
        Map<Long, String> fifoBefore = heads(f.engine.queues.require(fifo));

        HeadCuttingStore cutting = f.restartOverHeadCuttingStore();

        assertThat(cutting.cut).as("values were cut").isEqualTo(15);
        assertThat(heads(f.engine.queues.require(fair))).isEqualTo(fairBefore);
        assertThat(heads(f.engine.queues.require(fifo))).isEqualTo(fifoBefore);
        f.delete(fifo, held.get(0));
        assertThat(f.bodies(f.receive(fair, 10))).hasSize(10).allSatisfy(b -> assertThat(b).startsWith(body));
    }

    private static Map<Long, String> heads(QueueState q) {
        Map<Long, String> out = new java.util.TreeMap<>();
        q.messages.values().forEach(m -> out.put(m.seq, m.groupId + "/" + m.sentAt + "/" + m.state + "/" + m.receiveCount));
        return out;
    }

    @Test
    void newEngineSeesTheSameState() {
        QueueRef dlq = f.create("dlq");
        QueueRef std = f.engine.apply(new Command.CreateQueue(new CreateQueue(ACCOUNT, null, "std", AttributeUpdate.of(attrs("VisibilityTimeout", "60")),
                Map.of("team", "core"), f.now))).durable().value().ref();
        f.engine.apply(new Command.SetQueueAttributes(std, new AttributeUpdate(attrs("RedrivePolicy", "{json}"),
                new RedrivePolicy(arn("dlq"), 1), null), f.now)).durable();
        f.engine.apply(new Command.AddPermission(std, "label", List.of("111111111111"), List.of("SendMessage"), f.now)).durable();
        QueueRef fifo = f.createFifo("f.fifo");
        QueueRef dest = f.create("dest");
        QueueRef gone = f.create("gone");
        f.engine.apply(new Command.DeleteQueue(gone, f.now)).durable();

        f.send(std, "inflight");
        f.send(std, "visible");
        f.engine.apply(new Command.SendMessage(std, new SendMessage("delayed", null, null, 100, null, null, "s", f.nextId()), f.now)).durable();
        ReceivedMessage inflight = f.receive(std, 1).get(0);
        SendResult fa = f.sendFifo(fifo, "a", "G", "dedup-a");
        f.sendFifo(fifo, "b", "G", "dedup-b");
        List<ReceivedMessage> attempt = f.engine.apply(new Command.ReceiveMessage(fifo, new ReceiveMessages(1, null, "att", 99, f.now))).durable().value();
        // a poison message in the DLQ and a running move task out of it
        f.send(std, "poison");
        f.receive(std, 10, 0);
        f.receive(std, 10, 0);
        f.engine.tick(f.now);
        f.engine.apply(new Command.StartMoveTask(new StartMoveTask(arn("dlq"), arn("dest"), 1, "task", f.now))).durable();
        f.advance(10);

        Map<String, String> stdAttrs = EngineFixture.attributesAt(f.engine, std, List.of("All"), f.now);
        Map<String, String> fifoAttrs = EngineFixture.attributesAt(f.engine, fifo, List.of("All"), f.now);
        QueueCounts stdCounts = f.counts(std);
        List<MoveTaskInfo> tasks = f.engine.listMessageMoveTasks(arn("dlq"), 10);
        f.engine.tick(f.now);
        long deadline = f.engine.nextDeadline();

        f.restart();

        assertThat(f.engine.listQueues(ACCOUNT, null, null, null).queues()).extracting(QueueInfo::name)
                .containsExactly("dest", "dlq", "f.fifo", "std");
        assertThat(EngineFixture.attributesAt(f.engine, std, List.of("All"), f.now)).isEqualTo(stdAttrs);
        assertThat(EngineFixture.attributesAt(f.engine, fifo, List.of("All"), f.now)).isEqualTo(fifoAttrs);
        assertThat(f.engine.listQueueTags(std)).containsEntry("team", "core");
        assertThat(f.counts(std)).isEqualTo(stdCounts).isEqualTo(new QueueCounts(0, 1, 1));
        assertThat(f.engine.listMessageMoveTasks(arn("dlq"), 10)).isEqualTo(tasks);
        f.engine.tick(f.now); // wakes queues whose loaded messages were already visible
        assertThat(f.engine.nextDeadline()).isEqualTo(deadline);
        assertThat(f.engine.listDeadLetterSourceQueues(dlq, null, null).queues()).extracting(QueueInfo::name)
                .containsExactly("std");
        assertError(() -> f.create("gone"), "QueueDeletedRecently", null);

        // the receipt handle from before the restart still works, and in-flight state is kept
        f.engine.apply(new Command.ChangeVisibility(std, inflight.receiptHandle(), 5, f.now)).durable();
        f.delete(std, inflight);
        // FIFO: dedup entries and sequence numbers survive
        assertThat(f.sendFifo(fifo, "a", "G", "dedup-a")).isEqualTo(fa);
        SendResult c = f.sendFifo(fifo, "c", "G", "dedup-c");
        assertThat(new BigInteger(c.sequenceNumber())).isGreaterThan(new BigInteger(fa.sequenceNumber()));
        // the attempt id replays the same handle
        List<ReceivedMessage> retry = f.engine.apply(new Command.ReceiveMessage(fifo, new ReceiveMessages(1, null, "att", 100, f.now))).durable().value();
        assertThat(retry).extracting(ReceivedMessage::receiptHandle).containsExactly(attempt.get(0).receiptHandle());
        // the move task carries on
        f.advance(2000);
        f.engine.tick(f.now);
        assertThat(f.counts(dest).visible()).isEqualTo(2);
        assertThat(f.engine.listMessageMoveTasks(arn("dlq"), 1).get(0).status()).isEqualTo("COMPLETED");
        // the delayed message becomes visible on time
        f.advanceSeconds(100);
        assertThat(f.bodies(f.receive(std, 10))).containsExactly("delayed");
    }

    @Test
    void restartWithEmptyQueuesKeepsSequenceCounters() {
        QueueRef fifo = f.createFifo("f.fifo");
        SendResult a = f.sendFifo(fifo, "a", "G", "1");
        f.delete(fifo, f.receive(fifo, 1).get(0));
        f.restart();
        f.advance(1);
        SendResult b = f.sendFifo(fifo, "b", "G", "2");
        assertThat(new BigInteger(b.sequenceNumber())).isGreaterThan(new BigInteger(a.sequenceNumber()));
        QueueRef again = f.create("another");
        assertThat(f.engine.getQueue(again).name()).isEqualTo("another");
    }
}
