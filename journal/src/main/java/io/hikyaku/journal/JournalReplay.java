package io.hikyaku.journal;

import io.hikyaku.engine.EngineShard;
import io.hikyaku.engine.QueueEngine;
import io.hikyaku.engine.command.CommandCodec;
import io.hikyaku.engine.store.Store;
import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Replays a journal into a fresh engine over an empty store and returns the state digest. Each LOAD
 * frame starts an engine over the store as the server did (the first over the empty store, later
 * ones reload what the commands before them wrote: a restart); each COMMAND frame is applied; each
 * DIGEST frame (a server stop) is compared with the replayed state there; each FAULT frame (a
 * simulated store fault) makes the next command's writes fail as they failed when recorded
 * ({@link ReplayedFaults}).
 *
 * <p>One engine shard's journal replays alone, into a store of its own: the engine is that shard
 * of the recorded count, loaded with the recorded queue id floor. On the server the other shards'
 * queues shared the store and raised the highest id each load saw; the replay's store holds only
 * this shard's, so it takes the floor from the frame and allocates the very ids the server did.
 * Nothing else a shard loads is another shard's (see ENGINE.md "Shards"), so the replayed state,
 * and its digest (the shard's own part of the store), is the server's shard's.
 *
 * <p>The result equals the server's state only if the server's first start was on an empty data
 * directory ({@link Outcome#startedEmpty()}), and it ran without a storage failure in between (a
 * write that failed was undone by the server's reload, but its command is in the journal).
 */
public final class JournalReplay {

    /**
     * {@code digest} of the replayed state; {@code recordedDigest} the last one the server recorded at
     * a stop (null if none); {@code mismatches} stops whose recorded digest differed from the replay
     * there; {@code truncated} the journal ends in a frame cut short (a crash while it was written);
     * {@code shard} the engine shard the loads recorded ({@link EngineShard#ONLY} before load version 3).
     */
    public record Outcome(String digest, String recordedDigest, long commands, int loads, int mismatches,
                          boolean startedEmpty, boolean truncated, EngineShard shard) {

        /** The replay reproduced every state the server recorded (and there was at least one). */
        public boolean matches() {
            return recordedDigest != null && mismatches == 0;
        }
    }

    private JournalReplay() {
    }

    /**
     * Replays {@code journal}; {@code storeFor} opens an empty store of the kind the server ran on
     * ("rocksdb", "memory"), once, at the first load. The caller closes it.
     */
    public static Outcome replay(Path journal, java.util.function.Function<String, Store> storeFor) throws IOException {
        Store store = null;
        ReplayedFaults faults = null;
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(journal), 1 << 16))) {
            byte[] head = in.readNBytes(JournalFormat.MAGIC.length + 1);
            if (head.length < JournalFormat.MAGIC.length + 1
                    || !Arrays.equals(Arrays.copyOf(head, JournalFormat.MAGIC.length), JournalFormat.MAGIC)) {
                throw new IOException(journal + " is not a Hikyaku journal");
            }
            if (head[JournalFormat.MAGIC.length] != JournalFormat.VERSION) {
                throw new IOException(journal + " is a journal of version " + head[JournalFormat.MAGIC.length]
                        + "; this build reads version " + JournalFormat.VERSION);
            }
            QueueEngine engine = null;
            String recorded = null;
            long commands = 0;
            int loads = 0;
            int mismatches = 0;
            boolean startedEmpty = false;
            boolean truncated = false;
            EngineShard shard = EngineShard.ONLY;
            while (true) {
                byte[] prefix = in.readNBytes(4);
                if (prefix.length < 4) {
                    truncated = prefix.length > 0;
                    break;
                }
                int length = java.nio.ByteBuffer.wrap(prefix).getInt();
                if (length < 1 || length > JournalFormat.MAX_FRAME) {
                    throw new IOException(journal + ": a frame of " + length + " bytes after " + commands
                            + " commands: the journal is damaged");
                }
                byte[] frame = in.readNBytes(length);
                if (frame.length < length) {
                    truncated = true;
                    break;
                }
                byte kind = frame[0];
                byte[] payload = Arrays.copyOfRange(frame, 1, frame.length);
                if (kind == JournalFormat.LOAD) {
                    DataInputStream p = new DataInputStream(new ByteArrayInputStream(payload));
                    long loadedAt = p.readLong();
                    long budget = p.readLong();
                    boolean cooldowns = p.readByte() == 1;
                    boolean empty = p.readByte() == 1;
                    String region = p.readUTF();
                    String storage = p.readUTF();
                    int version = p.available() > 0 ? p.readByte() : 1;
                    // Load version 1 (before the window was recorded) ran with the default window.
                    long window = version >= 2 ? p.readLong() : QueueEngine.DEFAULT_INDEX_WINDOW;
                    // Before version 3 the server ran one engine, with the floor its store gives.
                    EngineShard loaded = version >= 3 ? new EngineShard(p.readInt(), p.readInt()) : EngineShard.ONLY;
                    long floor = version >= 3 ? p.readLong() : 0;
                    if (loads == 0) {
                        startedEmpty = empty;
                        store = storeFor.apply(storage);
                        faults = new ReplayedFaults(store);
                        shard = loaded;
                    } else if (!loaded.equals(shard)) {
                        throw new IOException(journal + ": load " + (loads + 1) + " is shard " + loaded.index() + " of "
                                + loaded.count() + ", the first was shard " + shard.index() + " of " + shard.count());
                    }
                    faults.reloaded();
                    engine = new QueueEngine(faults, region, loadedAt, budget, window, shard, floor);
                    engine.cooldowns(cooldowns);
                    loads++;
                } else if (kind == JournalFormat.COMMAND) {
                    if (engine == null) {
                        throw new IOException(journal + ": a command before the first load frame");
                    }
                    engine.apply(CommandCodec.decode(payload));
                    faults.commandDone();
                    commands++;
                } else if (kind == JournalFormat.FAULT) {
                    if (faults == null) {
                        throw new IOException(journal + ": a fault before the first load frame");
                    }
                    DataInputStream p = new DataInputStream(new ByteArrayInputStream(payload));
                    faults.arm(p.readInt(), p.readByte() == 1);
                } else if (kind == JournalFormat.DIGEST) {
                    recorded = new DataInputStream(new ByteArrayInputStream(payload)).readUTF();
                    if (engine == null || !recorded.equals(engine.digest())) {
                        mismatches++;
                    }
                } else {
                    throw new IOException(journal + ": a frame of unknown kind " + kind + " after " + commands
                            + " commands");
                }
            }
            String digest = engine == null ? null : engine.digest();
            return new Outcome(digest, recorded, commands, loads, mismatches, startedEmpty, truncated, shard);
        }
    }
}
