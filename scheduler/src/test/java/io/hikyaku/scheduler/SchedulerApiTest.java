package io.hikyaku.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.protocol.HttpRequestData;
import io.hikyaku.protocol.HttpResponseData;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** CreateSchedule and UpdateSchedule against what the target queues are. */
class SchedulerApiTest {

    private static final String ACCOUNT = "000000000000";
    private static final String ROLE = "arn:aws:iam::000000000000:role/r";

    private static String body(String queueArn, String dlqArn) {
        return "{\"ScheduleExpression\":\"rate(5 minutes)\",\"FlexibleTimeWindow\":{\"Mode\":\"OFF\"},\"Target\":{\"Arn\":\""
                + queueArn + "\",\"RoleArn\":\"" + ROLE + "\",\"SqsParameters\":{\"MessageGroupId\":\"g\"}"
                + (dlqArn == null ? "" : ",\"DeadLetterConfig\":{\"Arn\":\"" + dlqArn + "\"}") + "}}";
    }

    private static HttpResponseData call(SchedulerApi api, String method, String name, String body) {
        return api.handle(new HttpRequestData(method, "/schedules/" + name, "", Map.of(), body.getBytes(StandardCharsets.UTF_8)), ACCOUNT);
    }

    private static String text(HttpResponseData r) {
        return new String(r.body(), StandardCharsets.UTF_8);
    }

    @Test
    void aFifoTargetWithoutContentBasedDeduplicationIsRefusedOnCreateAndUpdate() throws Exception {
        String withDedup = "arn:aws:sqs:us-east-1:000000000000:with.fifo";
        String without = "arn:aws:sqs:us-east-1:000000000000:without.fifo";
        String missing = "arn:aws:sqs:us-east-1:000000000000:later.fifo";
        TargetQueues queues = arn -> arn.equals(withDedup) ? Boolean.TRUE : arn.equals(without) ? Boolean.FALSE : null;
        SchedulerApi api = new SchedulerApi(SchedulerStore.open("us-east-1", new SchedulerJournal(io.hikyaku.servicelog.ServiceLog.memory())), Clock.systemUTC(), queues);

        HttpResponseData refused = call(api, "POST", "s", body(without, null));
        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.headers()).containsEntry("x-amzn-ErrorType", "ValidationException");
        assertThat(text(refused)).isEqualTo("{\"Message\":\"Invalid target Arn " + without
                + ": a FIFO queue target must have ContentBasedDeduplication enabled.\"}");
        assertThat(call(api, "GET", "s", "").status()).isEqualTo(404); // nothing was created

        assertThat(call(api, "POST", "s", body(withDedup, null)).status()).isEqualTo(200);
        HttpResponseData update = call(api, "PUT", "s", body(without, null));
        assertThat(update.status()).isEqualTo(400);
        assertThat(text(call(api, "GET", "s", ""))).contains(withDedup); // the update changed nothing
        // a queue not there (yet) is not looked into, as AWS does not look at targets at create
        assertThat(call(api, "POST", "later", body(missing, null)).status()).isEqualTo(200);
    }

    @Test
    void aDeadLetterQueueIsAStandardQueueAsAwsModelWritesIt() throws Exception {
        SchedulerApi api = new SchedulerApi(SchedulerStore.open("us-east-1", new SchedulerJournal(io.hikyaku.servicelog.ServiceLog.memory())), Clock.systemUTC());
        String target = "arn:aws:sqs:us-east-1:000000000000:q";
        HttpResponseData fifoDlq = call(api, "POST", "s", body(target, "arn:aws:sqs:us-east-1:000000000000:dlq.fifo"));
        assertThat(fifoDlq.status()).isEqualTo(400);
        assertThat(text(fifoDlq)).contains("1 validation error detected: Value 'arn:aws:sqs:us-east-1:000000000000:dlq.fifo' at "
                + "'target.deadLetterConfig.arn' failed to satisfy constraint: Member must satisfy regular expression pattern: "
                + "^arn:aws(-[a-z]+)?:sqs:[a-z0-9\\\\-]+:\\\\d{12}:[a-zA-Z0-9\\\\-_]+$");
        assertThat(call(api, "POST", "s", body(target, "arn:aws:sqs:us-east-1:000000000000:dlq")).status()).isEqualTo(200);
    }
}
