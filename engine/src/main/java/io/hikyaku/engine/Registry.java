package io.hikyaku.engine;

import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/** The queues by id, by (account, name) and by ARN, and the timer schedule over queues. */
final class Registry {

    /** Shared by every queue registered here. */
    final BodyCache bodies = new BodyCache(BodyCache.DEFAULT_LIMIT_BYTES);
    /** Shared by every queue registered here. */
    final IndexBudget budget;

    final Map<Long, QueueState> byId = new HashMap<>();
    final Map<String, TreeMap<String, QueueState>> byAccount = new HashMap<>();
    final Map<String, QueueState> byArn = new HashMap<>();
    /** Queues by their next deadline: tick pops the due ones. */
    final TreeSet<QueueState> schedule = new TreeSet<>(
            Comparator.<QueueState>comparingLong(q -> q.scheduledAt).thenComparingLong(q -> q.id));

    Registry(IndexBudget budget) {
        this.budget = budget;
    }

    void add(QueueState q) {
        q.bodies = bodies;
        q.budget = budget;
        byId.put(q.id, q);
        byAccount.computeIfAbsent(q.accountId, a -> new TreeMap<>()).put(q.name, q);
        byArn.put(q.arn, q);
        reschedule(q);
    }

    void remove(QueueState q) {
        unschedule(q);
        byId.remove(q.id);
        TreeMap<String, QueueState> names = byAccount.get(q.accountId);
        if (names != null) {
            names.remove(q.name);
        }
        byArn.remove(q.arn);
    }

    QueueState find(QueueRef ref) {
        if (ref == null) {
            return null;
        }
        TreeMap<String, QueueState> names = byAccount.get(ref.accountId());
        return names == null ? null : names.get(ref.name());
    }

    QueueState require(QueueRef ref) {
        QueueState q = find(ref);
        if (q == null) {
            throw Texts.noQueue();
        }
        return q;
    }

    TreeMap<String, QueueState> namesOf(String accountId) {
        return byAccount.getOrDefault(accountId, new TreeMap<>());
    }

    void reschedule(QueueState q) {
        long deadline = q.deadline();
        if (deadline == q.scheduledAt) {
            return;
        }
        unschedule(q);
        q.scheduledAt = deadline;
        if (q.scheduledAt != Long.MAX_VALUE) {
            schedule.add(q);
        }
    }

    private void unschedule(QueueState q) {
        if (q.scheduledAt != Long.MAX_VALUE) {
            schedule.remove(q);
            q.scheduledAt = Long.MAX_VALUE;
        }
    }

    long nextDeadline() {
        return schedule.isEmpty() ? Long.MAX_VALUE : schedule.first().scheduledAt;
    }

    /** Removes and returns the first queue due at {@code now}, or null. */
    QueueState pollDue(long now) {
        if (schedule.isEmpty() || schedule.first().scheduledAt > now) {
            return null;
        }
        QueueState q = schedule.pollFirst();
        q.scheduledAt = Long.MAX_VALUE;
        return q;
    }
}
