package io.hikyaku.journal;

import io.hikyaku.engine.QueueEngine;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The payloads of the frames ({@link JournalFormat}), built once for every writer of a journal: the
 * server's file ({@link JournalWriter}) and the simulator's in-memory record ({@link MemoryJournal}).
 */
final class JournalFrames {

    private JournalFrames() {
    }

    /** Writes one frame: its length (kind byte included), the kind, the payload. */
    static void write(DataOutputStream out, byte kind, byte[] payload) throws IOException {
        out.writeInt(payload.length + 1);
        out.writeByte(kind);
        out.write(payload);
    }

    static void header(DataOutputStream out) throws IOException {
        out.write(JournalFormat.MAGIC);
        out.writeByte(JournalFormat.VERSION);
    }

    /** A LOAD frame's payload: what a replay needs to load the engine as {@code engine} was loaded. */
    static byte[] load(long loadedAt, QueueEngine engine, String region, boolean cooldowns, String storage) {
        return bytes(frame -> {
            frame.writeLong(loadedAt);
            frame.writeLong(engine.indexBudget());
            frame.writeByte(cooldowns ? 1 : 0);
            frame.writeByte(engine.snapshot().isEmpty() ? 1 : 0);
            frame.writeUTF(region);
            frame.writeUTF(storage);
            frame.writeByte(JournalFormat.LOAD_VERSION);
            frame.writeLong(engine.indexWindow());
            // What this shard's load read from data other shards write too: the ids they allocated.
            frame.writeInt(engine.shard().index());
            frame.writeInt(engine.shard().count());
            frame.writeLong(engine.idFloor());
        });
    }

    static byte[] digest(String digest) {
        return bytes(frame -> frame.writeUTF(digest));
    }

    /** A FAULT frame's payload: the next command's write {@code skipWrites} (0-based) fails. */
    static byte[] fault(int skipWrites, boolean applied) {
        return bytes(frame -> {
            frame.writeInt(skipWrites);
            frame.writeByte(applied ? 1 : 0);
        });
    }

    private interface Fields {
        void write(DataOutputStream frame) throws IOException;
    }

    private static byte[] bytes(Fields fields) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream frame = new DataOutputStream(bytes)) {
            fields.write(frame);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a byte array does not fail
        }
        return bytes.toByteArray();
    }
}
