package io.hikyaku.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Where a replicated write spends its time, stage by stage (count, total and largest duration), so
 * that metrics and benchmarks can say what bounds the cluster's throughput. Written from several
 * threads (batcher, Ratis callbacks, the apply thread) without locks.
 *
 * <p>The stages, in the order one write goes through them on the leader (CLUSTER.md "Where the time
 * goes"): {@link Stage#QUEUED} (per batch: written until packed into an entry), {@link Stage#SUBMIT}
 * (per entry: packed until Ratis took it), {@link Stage#COMMIT} (per entry: taken until the leader's
 * apply starts: the leader's log flush and, in parallel, a follower's append, flush and reply, then
 * the commit), {@link Stage#APPLY} (per entry, on every replica: the write to the node's store),
 * {@link Stage#ANSWER} (per entry: applied until Ratis answered the proposal, which frees its
 * in-flight slot) and {@link Stage#WRITE} (per batch: written until acknowledged, end to end).
 */
public final class ReplicationStages {

    public enum Stage {
        QUEUED, SUBMIT, COMMIT, APPLY, ANSWER, WRITE;

        /** The name in metrics ({@code stage} tag). */
        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** One stage's totals since start. */
    public record Totals(String stage, long count, long totalNanos, long maxNanos) {
        public double meanMillis() {
            return count == 0 ? 0 : totalNanos / 1e6 / count;
        }
    }

    private final AtomicLong[] counts = new AtomicLong[Stage.values().length];
    private final AtomicLong[] totals = new AtomicLong[Stage.values().length];
    private final AtomicLong[] maxima = new AtomicLong[Stage.values().length];

    ReplicationStages() {
        for (int i = 0; i < counts.length; i++) {
            counts[i] = new AtomicLong();
            totals[i] = new AtomicLong();
            maxima[i] = new AtomicLong();
        }
    }

    /** Records one pass through {@code stage} that took {@code nanos}. */
    void record(Stage stage, long nanos) {
        int i = stage.ordinal();
        long n = Math.max(0, nanos);
        counts[i].incrementAndGet();
        totals[i].addAndGet(n);
        maxima[i].accumulateAndGet(n, Math::max);
    }

    List<Totals> snapshot() {
        List<Totals> out = new ArrayList<>();
        for (Stage s : Stage.values()) {
            int i = s.ordinal();
            out.add(new Totals(s.label(), counts[i].get(), totals[i].get(), maxima[i].get()));
        }
        return out;
    }
}
