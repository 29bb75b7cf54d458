package io.hikyaku.cluster;

/**
 * Replication counters of this node (for metrics and benchmarks): Raft entries it applied, store
 * batches they carried, and of the entries this node proposed as leader, how many and how many
 * batches they packed (group commit), with the most batches one entry held, and where the time of a
 * replicated write goes ({@link ReplicationStages}).
 */
public record ClusterStats(long entriesApplied, long batchesApplied,
                           long entriesProposed, long batchesProposed, int maxBatchesPerEntry,
                           java.util.List<ReplicationStages.Totals> stages) {

    /** Store batches per proposed entry (0 when none was proposed). */
    public double batchesPerEntry() {
        return entriesProposed == 0 ? 0 : (double) batchesProposed / entriesProposed;
    }
}
