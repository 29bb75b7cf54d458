package io.hikyaku.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.api.CallContext;
import io.hikyaku.api.SqsService;
import io.hikyaku.protocol.ApiRequest;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** Firing on an injected clock into a recording SQS service. */
class ScheduleFirerTest {

    static final String ACCOUNT = "000000000000";

    /** A clock the test moves. */
    static final class ManualClock extends Clock {
        long now;

        ManualClock(long now) {
            this.now = now;
        }

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(now);
        }
    }

    static final class RecordingSqs implements SqsService {
        final List<ObjectNode> sent = new ArrayList<>();
        final List<CallContext> contexts = new ArrayList<>();
        boolean fail;

        @Override
        public void close() {
        }

        @Override
        public CompletableFuture<ObjectNode> invoke(CallContext context, ApiRequest request) {
            if (fail) {
                return CompletableFuture.failedFuture(new RuntimeException("queue down"));
            }
            sent.add(request.input().deepCopy());
            contexts.add(context);
            return CompletableFuture.completedFuture(new com.fasterxml.jackson.databind.ObjectMapper().createObjectNode());
        }
    }

    private static ScheduleDefinition def(String name, String expression, String target, String after, int window) {
        return new ScheduleDefinition("default", name, expression, "UTC", null, null, "ENABLED", null, window, after, null,
                target, null);
    }

    private static final String STANDARD = "{\"Arn\":\"arn:aws:sqs:us-east-1:000000000000:q\",\"RoleArn\":\"arn:aws:iam::000000000000:role/r\","
            + "\"Input\":\"hello <aws.scheduler.scheduled-time>\"}";
    private static final String FIFO = "{\"Arn\":\"arn:aws:sqs:us-east-1:000000000000:q.fifo\",\"RoleArn\":\"arn:aws:iam::000000000000:role/r\","
            + "\"Input\":\"f\",\"SqsParameters\":{\"MessageGroupId\":\"g1\"}}";

    @Test
    void atFiresOnceAtItsTimeAndDeletesAfterCompletion() throws Exception {
        ManualClock clock = new ManualClock(Instant.parse("2027-01-01T00:00:00Z").toEpochMilli());
        SchedulerStore store = SchedulerStore.open("us-east-1", new SchedulerJournal(io.hikyaku.servicelog.ServiceLog.memory()));
        RecordingSqs sqs = new RecordingSqs();
        ScheduleFirer firer = new ScheduleFirer(store, sqs, "us-east-1", clock);
        store.apply(new SchedulerCommand.PutSchedule(ACCOUNT, null, true, def("once", "at(2027-01-01T00:00:02)", STANDARD, "DELETE", 0), clock.now));
        assertThat(firer.tick()).isZero();
        clock.now += 1999;
        assertThat(firer.tick()).isZero();
        clock.now += 1;
        assertThat(firer.tick()).isEqualTo(1);
        assertThat(sqs.sent.get(0).path("MessageBody").asText()).isEqualTo("hello 2027-01-01T00:00:02Z");
        assertThat(sqs.sent.get(0).path("QueueUrl").asText()).endsWith("/000000000000/q");
        List<Schedule> left = store.read(s -> s.schedules(ACCOUNT));
        assertThat(left).isEmpty();
        clock.now += 60_000;
        assertThat(firer.tick()).isZero();
    }

    @Test
    void everyFireIsASendOnceOfScheduleGenerationAndTimeAndAFifoTargetGetsItsGroupAndNoDedupId() throws Exception {
        ManualClock clock = new ManualClock(Instant.parse("2027-01-01T00:00:00Z").toEpochMilli());
        SchedulerStore store = SchedulerStore.open("us-east-1", new SchedulerJournal(io.hikyaku.servicelog.ServiceLog.memory()));
        RecordingSqs sqs = new RecordingSqs();
        ScheduleFirer firer = new ScheduleFirer(store, sqs, "us-east-1", clock);
        String arn = store.apply(new SchedulerCommand.PutSchedule(ACCOUNT, null, true, def("r", "rate(1 minute)", FIFO, "NONE", 0), clock.now));
        assertThat(firer.tick()).isEqualTo(1); // first run immediately
        clock.now += 60_000;
        assertThat(firer.tick()).isEqualTo(1);
        assertThat(sqs.sent).hasSize(2);
        assertThat(sqs.sent.get(0).path("MessageGroupId").asText()).isEqualTo("g1");
        assertThat(sqs.sent.get(1).has("MessageDeduplicationId")).isFalse(); // the queue's content-based dedup, as AWS
        assertThat(sqs.contexts.get(1).sendOnce()).isEqualTo(new io.hikyaku.api.SendOnceKey(arn, 1, clock.now));
        store.apply(new SchedulerCommand.DeleteSchedule(ACCOUNT, "default", "r"));
        String again = store.apply(new SchedulerCommand.PutSchedule(ACCOUNT, null, true, def("r", "rate(1 minute)", FIFO, "NONE", 0), clock.now));
        assertThat(again).isEqualTo(arn);
        assertThat(firer.tick()).isEqualTo(1); // the same ARN created again: a new generation, not a repeat
        assertThat(sqs.contexts.get(2).sendOnce()).isEqualTo(new io.hikyaku.api.SendOnceKey(arn, 2, clock.now));
        clock.now += 10 * 60_000 + 5; // ten missed fires: only the latest is sent
        assertThat(firer.tick()).isEqualTo(1);
        assertThat(sqs.sent).hasSize(4);
        assertThat(firer.tick()).isZero();
    }

    @Test
    void aFailedSendIsRetriedAndTheFlexibleOffsetIsDeterministicAndInsideTheWindow() throws Exception {
        ManualClock clock = new ManualClock(Instant.parse("2027-01-01T00:00:00Z").toEpochMilli());
        SchedulerStore store = SchedulerStore.open("us-east-1", new SchedulerJournal(io.hikyaku.servicelog.ServiceLog.memory()));
        RecordingSqs sqs = new RecordingSqs();
        ScheduleFirer firer = new ScheduleFirer(store, sqs, "us-east-1", clock);
        store.apply(new SchedulerCommand.PutSchedule(ACCOUNT, null, true, def("once", "at(2027-01-01T00:00:01)", STANDARD, "NONE", 0), clock.now));
        sqs.fail = true;
        clock.now += 1000;
        assertThat(firer.tick()).isZero();
        sqs.fail = false;
        clock.now += 5000;
        assertThat(firer.tick()).isEqualTo(1);
        long o = ScheduleFirer.offset("arn:x", 1000, 15);
        assertThat(o).isEqualTo(ScheduleFirer.offset("arn:x", 1000, 15)).isBetween(0L, 15 * 60_000L - 1);
        assertThat(ScheduleFirer.offset("arn:x", 1000, 0)).isZero();
    }
}
