package io.hikyaku.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.engine.store.MemoryStore;
import io.hikyaku.protocol.ApiRequest;
import io.hikyaku.protocol.WireProtocol;
import java.time.Clock;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** One smoke test on the real clock: the timer thread ends a 1 s delay on time for a long poll. */
class SystemClockTest {

    @Test
    void aDelayedMessageReachesALongPollAfterItsDelay() {
        try (SqsService sqs = SqsServices.create(new MemoryStore(), Clock.systemUTC())) {
            CallContext ctx = new CallContext("000000000000", "us-east-1", "http://h:1", null, "r");
            String url = ServiceHarness.await(sqs.invoke(ctx, request("CreateQueue", "{\"QueueName\":\"rt\"}")))
                    .get("QueueUrl").asText();
            ServiceHarness.await(sqs.invoke(ctx, request("SendMessage",
                    "{\"QueueUrl\":\"" + url + "\",\"MessageBody\":\"soon\",\"DelaySeconds\":1}")));
            long start = System.nanoTime();
            CompletableFuture<ObjectNode> poll = sqs.invoke(ctx, request("ReceiveMessage",
                    "{\"QueueUrl\":\"" + url + "\",\"WaitTimeSeconds\":5}"));
            ObjectNode got = ServiceHarness.await(poll);
            long elapsedMs = (System.nanoTime() - start) / 1_000_000;
            assertThat(got.get("Messages").get(0).get("Body").asText()).isEqualTo("soon");
            assertThat(elapsedMs).isBetween(700L, 2_000L);
        }
    }

    private static ApiRequest request(String action, String json) {
        return new ApiRequest(action, ServiceHarness.parse(json), WireProtocol.JSON, false, "/");
    }
}
