package io.hikyaku.cluster;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The leader's guard against a Ratis 3.3.0 bug (RATIS-2605 / RATIS-2523, CLUSTER.md): a leader can keep
 * a stale position for a follower whose disks were replaced (or that started late) and then only send
 * it heartbeats, which it answers with INCONSISTENCY, so the follower never receives the log. A new
 * leader starts from fresh follower state, so handing leadership on repairs it.
 *
 * <p>Each round (about once a second, on the leader) it is told the leader's applied index and, per
 * follower, its match index and how long ago it last answered. A follower is <em>stuck</em> when it
 * answers (it is alive) but its match index is behind the leader and has not moved for
 * {@link #STUCK_AFTER_MS}; a follower that is catching up moves and is left alone, and one that does
 * not answer is down, not stuck. Then leadership goes to the most advanced follower that answers
 * and is not stuck, at most once per {@link #BACKOFF_MS}. Pure logic on the time it is given (tested on a fake
 * clock); the node runs the transfer.
 */
final class StuckFollowerWatchdog {

    /** How long an answering follower's match index may stay behind without moving. */
    static final long STUCK_AFTER_MS = 10_000;
    /** A follower that has not answered for this long is down, not stuck. */
    static final long ALIVE_WITHIN_MS = 3_000;
    /**
     * A follower behind the leader's log start receives a snapshot, during which its match index does
     * not move for as long as the files take: it is stuck only after this long (a transfer of leadership
     * would restart the install from the beginning).
     */
    static final long INSTALLING_STUCK_AFTER_MS = 120_000;
    /** Between two transfers, at least this long (a transfer and the new leader's catch-up take time). */
    static final long BACKOFF_MS = 30_000;

    /** One follower as the leader sees it. */
    record Follower(String id, long matchIndex, long lastAnswerMsAgo) {}

    /** Per follower: its match index when first seen at that value, and when. */
    private final Map<String, long[]> since = new HashMap<>();
    private long lastTransferAt = Long.MIN_VALUE;

    /**
     * One round at {@code nowMs}: the node to hand leadership to, if a follower is stuck and another
     * answering follower can take over.
     */
    Optional<String> round(long nowMs, long leaderApplied, List<Follower> followers) {
        return round(nowMs, leaderApplied, 0, followers);
    }

    /** As above; {@code logStart}: the first index of the leader's log (entries before it were purged). */
    Optional<String> round(long nowMs, long leaderApplied, long logStart, List<Follower> followers) {
        java.util.Set<String> stuck = new java.util.HashSet<>();
        for (Follower f : followers) {
            long[] seen = since.get(f.id());
            if (seen == null || seen[0] != f.matchIndex()) {
                since.put(f.id(), new long[] {f.matchIndex(), nowMs});
                continue;
            }
            long patience = f.matchIndex() + 1 < logStart ? INSTALLING_STUCK_AFTER_MS : STUCK_AFTER_MS;
            if (answers(f) && f.matchIndex() < leaderApplied && nowMs - seen[1] >= patience) {
                stuck.add(f.id());
            }
        }
        if (stuck.isEmpty() || (lastTransferAt != Long.MIN_VALUE && nowMs - lastTransferAt < BACKOFF_MS)) {
            return Optional.empty();
        }
        Optional<String> target = followers.stream()
                .filter(f -> !stuck.contains(f.id()) && answers(f))
                .max(java.util.Comparator.comparingLong(Follower::matchIndex))
                .map(Follower::id);
        if (target.isPresent()) {
            lastTransferAt = nowMs;
            since.clear(); // the next leader's view starts fresh
        }
        return target;
    }

    private static boolean answers(Follower f) {
        return f.lastAnswerMsAgo() >= 0 && f.lastAnswerMsAgo() < ALIVE_WITHIN_MS;
    }

    /** This node stopped leading: what it saw no longer matters. */
    void reset() {
        since.clear();
    }
}
