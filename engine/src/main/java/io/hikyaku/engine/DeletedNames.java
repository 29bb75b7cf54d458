package io.hikyaku.engine;

import io.hikyaku.engine.store.Keyspace;
import io.hikyaku.engine.store.StoreBatch;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeSet;

/** Recently deleted queue names, blocked for 60 s (QueueDeletedRecently); persisted in HOUSEKEEPING. */
final class DeletedNames {

    static final long BLOCK_MS = 60_000;

    private record Expiry(long deletedAt, String account, String name) implements Comparable<Expiry> {
        @Override
        public int compareTo(Expiry o) {
            int c = Long.compare(deletedAt, o.deletedAt);
            if (c == 0) {
                c = account.compareTo(o.account);
            }
            return c != 0 ? c : name.compareTo(o.name);
        }
    }

    private final Map<QueueRef, Long> deletedAt = new HashMap<>();
    private final TreeSet<Expiry> byTime = new TreeSet<>();

    void loaded(String account, String name, long at) {
        deletedAt.put(new QueueRef(account, name), at);
        byTime.add(new Expiry(at, account, name));
    }

    /** Records a deletion at {@code now} (replacing an older one). */
    void deleted(String account, String name, long now, StoreBatch b) {
        forget(account, name, b);
        loaded(account, name, now);
        b.put(Keyspace.HOUSEKEEPING, Keys.deletedName(account, name), Enc.version(1).i64(now).done());
    }

    boolean isBlocked(String account, String name, long now) {
        Long at = deletedAt.get(new QueueRef(account, name));
        return at != null && now < at + BLOCK_MS;
    }

    void forget(String account, String name, StoreBatch b) {
        Long at = deletedAt.remove(new QueueRef(account, name));
        if (at != null) {
            byTime.remove(new Expiry(at, account, name));
            b.delete(Keyspace.HOUSEKEEPING, Keys.deletedName(account, name));
        }
    }

    long nextExpiry() {
        return byTime.isEmpty() ? Long.MAX_VALUE : byTime.first().deletedAt() + BLOCK_MS;
    }

    void expire(long now, StoreBatch b) {
        while (!byTime.isEmpty() && byTime.first().deletedAt() + BLOCK_MS <= now) {
            Expiry e = byTime.first();
            forget(e.account(), e.name(), b);
        }
    }
}
