package io.hikyaku.api;

import static io.hikyaku.api.FailingDiskService.errorType;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.api.FailingDiskService.InFlight;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A call that writes nothing is judged on memory, which may hold a change whose write has not
 * settled: a second delete of a message finds it gone. If that first delete then fails, the message
 * is back after recovery, so the second delete must not have been answered 200 meanwhile (a delete
 * acknowledged, then the message delivered again). Its answer waits for the writes before it.
 */
class NoChangeAnswerWaitsTest {

    private final FailingDiskService s = new FailingDiskService();

    @AfterEach
    void close() {
        s.close();
    }

    @Test
    void aSecondDeleteIsNotAcknowledgedBeforeTheFirstIsDurable() throws Exception {
        InFlight m = s.messageInFlight();

        s.store.fillDisk();
        s.store.holdOutcomes(); // the first delete's failure is not known yet when the second runs
        CompletableFuture<ObjectNode> first = s.call("DeleteMessage", m.delete());
        CompletableFuture<ObjectNode> second = s.call("DeleteMessage", m.delete());
        s.awaitInvoked();
        s.store.releaseOutcomes();

        assertThat(errorType(first)).isEqualTo("ServiceUnavailable");
        assertThat(errorType(second)).as("the second delete was judged on the first, which failed").isEqualTo("ServiceUnavailable");
        s.store.freeDisk();
        assertThat(s.awaitRecovered(m.change())).as("the message is still there, in flight under its handle").isNotNull();
    }
}
