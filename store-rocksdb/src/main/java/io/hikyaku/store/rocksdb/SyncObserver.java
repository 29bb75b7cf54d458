package io.hikyaku.store.rocksdb;

/** Told about each successful WAL sync (group commit), on the syncer thread: must be quick. */
@FunctionalInterface
public interface SyncObserver {

    SyncObserver NONE = (writes, nanos) -> { };

    /**
     * @param writes how many acknowledged writes this sync completed (the group size; 0 for a
     *               timed sync of the batch durability level)
     * @param nanos  how long the sync took
     */
    void synced(int writes, long nanos);
}
