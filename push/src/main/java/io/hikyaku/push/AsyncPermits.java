package io.hikyaku.push;

import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;

/** A semaphore whose acquire is a future, so waiting for a permit holds no thread. */
final class AsyncPermits {

    private int available;
    private final ArrayDeque<CompletableFuture<Void>> waiting = new ArrayDeque<>();

    AsyncPermits(int permits) {
        this.available = permits;
    }

    synchronized CompletableFuture<Void> acquire() {
        if (available > 0) {
            available--;
            return CompletableFuture.completedFuture(null);
        }
        CompletableFuture<Void> f = new CompletableFuture<>();
        waiting.add(f);
        return f;
    }

    void release() {
        CompletableFuture<Void> next;
        synchronized (this) {
            next = waiting.poll();
            if (next == null) {
                available++;
                return;
            }
        }
        next.complete(null); // outside the lock: the waiter's continuation may run here
    }
}
