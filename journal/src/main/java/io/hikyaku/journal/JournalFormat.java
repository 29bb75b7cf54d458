package io.hikyaku.journal;

/**
 * The journal file: a header ({@link #MAGIC}, then the format version byte), then frames. A frame is
 * its length (int, big-endian, counting the kind byte and the payload), a kind byte and the payload:
 * <ul>
 *   <li>{@link #LOAD}: an engine was loaded from the store: loadedAt (long), the index budget
 *       (long), cooldowns (byte 0/1), whether the store held no queue (byte 0/1), the default
 *       region and the kind of store (DataOutput UTF each); since load version 2, then the load
 *       version byte ({@link #LOAD_VERSION}) and the per-queue index window (long); since load
 *       version 3, then the engine shard's index and the shard count (int each) and the queue id
 *       floor the engine loaded with (long). A version-1 frame ends after the store kind and
 *       replays with the default window; a version-1 or -2 frame replays as the only shard, with
 *       the floor its replay store gives. The first frame of every server start, and after a
 *       storage failure.</li>
 *   <li>{@link #COMMAND}: one applied command in the {@code CommandCodec} form.</li>
 *   <li>{@link #DIGEST}: the state digest when the server stopped (DataOutput UTF).</li>
 *   <li>{@link #FAULT}: a store fault the simulator injected into the next command: which of its
 *       writes fails (int, 0-based, empty batches not counted) and whether that write was applied
 *       first (byte 0/1: a failed fsync) or not (a full disk); later writes are refused until the
 *       next LOAD. A server never writes it; the replay repeats it.</li>
 * </ul>
 * A frame cut short at the end of the file (a crash while writing) is reported, never read as data.
 */
final class JournalFormat {

    static final byte[] MAGIC = {'H', 'K', 'J', 'L'};
    static final int VERSION = 1;
    static final byte LOAD = 'L';
    static final byte COMMAND = 'C';
    static final byte DIGEST = 'D';
    static final byte FAULT = 'F';
    /**
     * The LOAD frame's layout: 1 = the fields up to the store kind; 2 = then this byte and the index
     * window; 3 = then the shard index, shard count and queue id floor. Fields are only ever
     * appended, so a reader takes what a frame has and defaults the rest.
     */
    static final byte LOAD_VERSION = 3;
    /** A frame larger than this is damage (the largest command, a batch of ten 1 MiB messages, is ~11 MiB). */
    static final int MAX_FRAME = 64 << 20;

    private JournalFormat() {
    }
}
