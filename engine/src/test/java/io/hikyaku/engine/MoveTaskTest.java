package io.hikyaku.engine;

import io.hikyaku.engine.command.Command;
import static io.hikyaku.engine.EngineFixture.ACCOUNT;
import static io.hikyaku.engine.EngineFixture.attrs;
import static io.hikyaku.engine.QueueLifecycleTest.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class MoveTaskTest {

    private final EngineFixture f = new EngineFixture();
    private QueueRef src;
    private QueueRef dlq;
    private QueueRef dest;

    private static String arn(String name) {
        return "arn:aws:sqs:us-east-1:" + ACCOUNT + ":" + name;
    }

    @BeforeEach
    void queues() {
        dlq = f.create("dlq");
        src = f.create("src");
        dest = f.create("dest");
        f.engine.apply(new Command.SetQueueAttributes(src, new AttributeUpdate(attrs("RedrivePolicy", "{..}"),
                new RedrivePolicy(arn("dlq"), 1), null), f.now)).durable();
    }

    /** Puts n messages into the DLQ by redrive from src. */
    private void fillDlq(int n) {
        for (int i = 0; i < n; i++) {
            f.send(src, "m" + i);
        }
        for (int i = 0; i < n; i += 10) {
            f.receive(src, 10, 0);
        }
        f.receive(src, 10, 0);
        while (!f.receive(src, 10, 0).isEmpty()) {
            // keeps redriving until src is empty
        }
        assertThat(f.counts(dlq).visible()).isEqualTo(n);
        f.engine.tick(f.now);
    }

    private MoveTaskInfo latest() {
        return f.engine.listMessageMoveTasks(arn("dlq"), 1).get(0);
    }

    @Test
    void movesAtTheGivenRateToTheDestination() {
        fillDlq(25);
        String handle = f.engine.apply(new Command.StartMoveTask(new StartMoveTask(arn("dlq"), arn("dest"), 10, "task-1", f.now))).durable().value();
        String json = new String(Base64.getDecoder().decode(handle), StandardCharsets.UTF_8);
        assertThat(json).isEqualTo("{\"taskId\":\"task-1\",\"sourceArn\":\"" + arn("dlq") + "\"}");
        MoveTaskInfo started = latest();
        assertThat(started.status()).isEqualTo("RUNNING");
        assertThat(started.approximateNumberOfMessagesToMove()).isEqualTo(25);
        assertThat(started.taskHandle()).isEqualTo(handle);
        assertThat(started.startedTimestamp()).isEqualTo(f.now);
        assertThat(f.engine.nextDeadline()).isEqualTo(f.now + 100);
        f.advance(1000);
        assertThat(f.engine.tick(f.now).queuesWithNewVisibleMessages()).contains(dest);
        assertThat(latest().approximateNumberOfMessagesMoved()).isEqualTo(10);
        assertThat(f.counts(dest).visible()).isEqualTo(10);
        assertThat(f.counts(dlq).visible()).isEqualTo(15);
        f.advance(1500);
        f.engine.tick(f.now);
        assertThat(latest().approximateNumberOfMessagesMoved()).isEqualTo(25);
        assertThat(latest().status()).isEqualTo("COMPLETED");
        assertThat(latest().taskHandle()).isNull();
        ReceivedMessage m = f.receive(dest, 1).get(0);
        assertThat(m.deadLetterQueueSourceArn()).isNull();
        assertThat(m.approximateReceiveCount()).isEqualTo(1);
    }

    @Test
    void fastTasksMoveInBatchesEvery100Milliseconds() {
        fillDlq(120);
        f.engine.apply(new Command.StartMoveTask(new StartMoveTask(arn("dlq"), arn("dest"), 500, "fast", f.now))).durable();
        assertThat(f.engine.nextDeadline()).isEqualTo(f.now + 100);
        f.advance(100);
        f.engine.tick(f.now);
        assertThat(latest().approximateNumberOfMessagesMoved()).isEqualTo(50);
        assertThat(f.engine.nextDeadline()).isEqualTo(f.now + 100);
        f.advance(150);
        f.engine.tick(f.now);
        assertThat(latest().approximateNumberOfMessagesMoved()).isEqualTo(120);
        assertThat(latest().status()).isEqualTo("COMPLETED");
    }

    @Test
    void withoutDestinationMessagesReturnToTheirSource() {
        fillDlq(3);
        f.engine.apply(new Command.StartMoveTask(new StartMoveTask(arn("dlq"), null, null, "t", f.now))).durable();
        f.advance(1000);
        f.engine.tick(f.now);
        assertThat(latest().status()).isEqualTo("COMPLETED");
        assertThat(f.counts(src).visible()).isEqualTo(3);
    }

    @Test
    void cancelStopsARunningTask() {
        fillDlq(20);
        String handle = f.engine.apply(new Command.StartMoveTask(new StartMoveTask(arn("dlq"), arn("dest"), 5, "t", f.now))).durable().value();
        f.advance(1000);
        assertThat(f.engine.apply(new Command.CancelMoveTask(handle, f.now)).durable().value()).isEqualTo(5);
        assertThat(latest().status()).isEqualTo("CANCELLING");
        f.engine.tick(f.now);
        assertThat(latest().status()).isEqualTo("CANCELLED");
        f.advance(10_000);
        f.engine.tick(f.now);
        assertThat(f.counts(dest).visible()).isEqualTo(5);
        assertError(() -> f.engine.apply(new Command.CancelMoveTask(handle, f.now)).durable(), "InvalidParameterValue", null);
        f.engine.apply(new Command.StartMoveTask(new StartMoveTask(arn("dlq"), arn("dest"), 5, "t2", f.now))).durable();
        List<MoveTaskInfo> all = f.engine.listMessageMoveTasks(arn("dlq"), 10);
        assertThat(all).extracting(MoveTaskInfo::status).containsExactly("RUNNING", "CANCELLED");
    }

    @Test
    void startAndCancelErrors() {
        assertError(() -> f.engine.apply(new Command.StartMoveTask(new StartMoveTask(arn("src"), null, null, "t", f.now))).durable(),
                "InvalidParameterValue", "Source queue must be configured as a Dead Letter Queue.");
        assertError(() -> f.engine.apply(new Command.StartMoveTask(new StartMoveTask(arn("dlq"), arn("nope"), null, "t", f.now))).durable(),
                "ResourceNotFoundException", "The resource that you specified for the DestinationArn parameter doesn't exist.");
        fillDlq(1);
        f.engine.apply(new Command.StartMoveTask(new StartMoveTask(arn("dlq"), arn("dest"), 1, "t", f.now))).durable();
        assertError(() -> f.engine.apply(new Command.StartMoveTask(new StartMoveTask(arn("dlq"), arn("dest"), 1, "t2", f.now))).durable(),
                "InvalidParameterValue",
                "There is already a task running. Only one active task is allowed for a source queue arn at a given time.");
        assertError(() -> f.engine.apply(new Command.CancelMoveTask("%%%", f.now)).durable(), "InvalidParameterValue",
                "Value for parameter TaskHandle is invalid.");
        String unknownTask = Base64.getEncoder().encodeToString(("{\"taskId\":\"x\",\"sourceArn\":\"" + arn("dlq") + "\"}")
                .getBytes(StandardCharsets.UTF_8));
        assertError(() -> f.engine.apply(new Command.CancelMoveTask(unknownTask, f.now)).durable(), "ResourceNotFoundException", "Task does not exist.");
        String unknownSource = Base64.getEncoder().encodeToString("{\"taskId\":\"t\",\"sourceArn\":\"arn:aws:sqs:us-east-1:1:zz\"}"
                .getBytes(StandardCharsets.UTF_8));
        assertError(() -> f.engine.apply(new Command.CancelMoveTask(unknownSource, f.now)).durable(), "ResourceNotFoundException",
                "The resource that you specified for the SourceArn parameter doesn't exist.");
    }
}
