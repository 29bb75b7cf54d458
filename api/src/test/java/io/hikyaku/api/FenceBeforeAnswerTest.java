package io.hikyaku.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.api.FailingDiskService.InFlight;
import io.hikyaku.protocol.ApiException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A client told 503 may call again at once: that call must not reach the engine, whose memory is
 * still ahead of the disk (the failed change applied). The fence is up before the 503 is given.
 * The next call is made inside the 503's own callback, on the store's completing thread, so it runs
 * before anything else that thread would do afterwards: deterministic, whatever the machine's load.
 */
class FenceBeforeAnswerTest {

    private final FailingDiskService s = new FailingDiskService();

    @AfterEach
    void close() {
        s.close();
    }

    @Test
    void aCallMadeOnHearingOfAFailedDeleteDoesNotSeeTheDelete() throws Exception {
        InFlight m = s.messageInFlight();

        s.store.fillDisk(); // no recovery before the test frees it: the next call can only be fenced or wrong
        s.store.slow(200_000); // the failure is reported on the store's thread, after every callback is registered
        CompletableFuture<Throwable> next = s.call("DeleteMessage", m.delete())
                .handle((v, deleteFailure) -> {
                    assertThat(deleteFailure).isInstanceOf(ApiException.class);
                    try {
                        s.call("ChangeMessageVisibility", m.change()).get(5, TimeUnit.SECONDS);
                        return null;
                    } catch (ExecutionException e) {
                        return e.getCause();
                    } catch (Exception e) {
                        return e;
                    }
                });

        Throwable refused = next.get(10, TimeUnit.SECONDS);
        s.store.slow(0);
        s.store.freeDisk();
        assertThat(refused).as("the change made on hearing 503 is refused as unavailable, not judged on the unwritten delete")
                .isInstanceOf(ApiException.class);
        assertThat(((ApiException) refused).errorType()).isEqualTo("ServiceUnavailable");
        assertThat(s.awaitRecovered(m.change())).as("after recovery the message is still there, in flight under its handle")
                .isNotNull();
    }
}
