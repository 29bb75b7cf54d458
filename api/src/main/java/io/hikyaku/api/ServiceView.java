package io.hikyaku.api;

import io.hikyaku.engine.EngineEvents;
import io.hikyaku.engine.MoveTaskInfo;
import io.hikyaku.engine.QueueSnapshot;
import java.util.List;

/**
 * A read-only look into a running service, for metrics: every read is pure (it processes no timers
 * and writes nothing) and never reaches the engine from the caller's thread: it reads immutable
 * snapshots the shards' applier threads publish ({@link ShardSnapshot}). The reads of counts, move
 * tasks and parked polls ask for a fresh snapshot and wait for it (bounded, else the latest
 * published one): call them from a reader's own thread (the scrape thread, the sampler), never an
 * event loop.
 */
public interface ServiceView {

    /** Every queue's counts. */
    List<QueueSnapshot> queueSnapshots();

    /**
     * The Policy and tags of queue {@code name} of {@code accountId} (authorization reads them), or
     * null when there is no such queue. Pure, and lock-free: a snapshot the engine keeps current on every change.
     */
    default io.hikyaku.engine.QueueAccess queueAccess(String accountId, String name) {
        return null;
    }

    /** Every known message move task. */
    List<MoveTaskInfo> moveTasks();

    /** Long-polling receives waiting right now. */
    int parkedReceives();

    /**
     * Where the engine reports what no result shows (dedup hits, dead-letter moves, sends refused for
     * memory); an engine reloaded after a storage failure reports there too.
     */
    void setEngineEvents(EngineEvents events);

    /** The engine's index budget and what uses it, as of its last call (never waits); null when not known. */
    default io.hikyaku.engine.IndexUsage indexUsage() {
        return null;
    }
}
