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

    /**
     * Where one group commit round's time went (FSYNC durability), in nanoseconds: {@code waited} from the
     * first write queued for it to the round's start (the previous round still syncing, or the thread's
     * wake-up), {@code wrote} applying the group to RocksDB, {@code synced} the fsync, {@code completed}
     * completing the group's futures (their dependents hand over to other threads).
     */
    default void round(int writes, long waited, long wrote, long synced, long completed) {
    }
}
