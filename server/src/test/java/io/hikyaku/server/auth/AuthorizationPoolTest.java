package io.hikyaku.server.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hikyaku.protocol.ApiException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Policy evaluation off the event loop: where it runs, what a refusal and a full queue give, cancellation. */
class AuthorizationPoolTest {

    @Test
    void authorizesAndCallsOnThePoolsThreadAndPassesTheResultOn() throws Exception {
        try (AuthorizationPool pool = new AuthorizationPool(1)) {
            String[] thread = new String[1];
            CompletableFuture<String> f = pool.run(() -> {
                thread[0] = Thread.currentThread().getName();
                return CompletableFuture.completedFuture("answered");
            });
            assertThat(f.get(5, TimeUnit.SECONDS)).isEqualTo("answered");
            assertThat(thread[0]).isEqualTo("hikyaku-authorize").isNotEqualTo(Thread.currentThread().getName());
        }
    }

    @Test
    void aRefusalFailsTheFutureWithTheSameError() {
        try (AuthorizationPool pool = new AuthorizationPool(1)) {
            CompletableFuture<String> f = pool.run(() -> {
                throw new ApiException("AccessDenied", "no");
            });
            assertThatThrownBy(() -> f.get(5, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                    .cause().isInstanceOf(ApiException.class).hasMessageContaining("no");
        }
    }

    @Test
    void aFullQueueRefusesWithRequestThrottled() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        try (AuthorizationPool pool = new AuthorizationPool(1)) {
            List<CompletableFuture<String>> queued = new ArrayList<>();
            for (int i = 0; i < AuthorizationPool.QUEUE + 1; i++) { // one running, QUEUE waiting
                queued.add(pool.run(() -> {
                    await(release);
                    return CompletableFuture.completedFuture("ok");
                }));
            }
            CompletableFuture<String> refused = pool.run(() -> CompletableFuture.completedFuture("never"));
            assertThatThrownBy(() -> refused.get(5, TimeUnit.SECONDS)).cause()
                    .isInstanceOf(ApiException.class).hasMessageContaining("throttling");
            assertThat(((ApiException) refused.handle((r, e) -> e).get()).errorType()).isEqualTo("RequestThrottled");
            release.countDown();
            for (CompletableFuture<String> f : queued) {
                assertThat(f.get(10, TimeUnit.SECONDS)).isEqualTo("ok");
            }
        }
    }

    @Test
    void cancellingTheAnswerCancelsTheCallItLedTo() throws Exception {
        try (AuthorizationPool pool = new AuthorizationPool(1)) {
            CompletableFuture<String> parked = new CompletableFuture<>(); // a long poll that would wait
            CountDownLatch called = new CountDownLatch(1);
            CompletableFuture<String> f = pool.run(() -> {
                called.countDown();
                return parked;
            });
            assertThat(called.await(5, TimeUnit.SECONDS)).isTrue();
            f.cancel(true);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (!parked.isCancelled() && System.nanoTime() < deadline) {
                Thread.sleep(1); // the pool thread may still be linking the two futures
            }
            assertThat(parked.isCancelled()).isTrue();
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
