package io.hikyaku.server.http;

import java.util.concurrent.atomic.AtomicLong;

/** A byte budget shared by all connections (partial heads, or bodies being received). */
final class PendingBytes {

    private final long limit;
    private final AtomicLong used = new AtomicLong();

    PendingBytes(long limit) {
        this.limit = limit;
    }

    /** Takes {@code bytes} from the budget, or nothing and false when that would pass the limit. */
    boolean tryTake(long bytes) {
        while (true) {
            long now = used.get();
            if (now + bytes > limit) {
                return false;
            }
            if (used.compareAndSet(now, now + bytes)) {
                return true;
            }
        }
    }

    void give(long bytes) {
        used.addAndGet(-bytes);
    }

    long used() {
        return used.get();
    }

    long limit() {
        return limit;
    }
}
