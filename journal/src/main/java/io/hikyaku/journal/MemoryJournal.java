package io.hikyaku.journal;

import io.hikyaku.engine.QueueEngine;
import io.hikyaku.engine.command.Command;
import io.hikyaku.engine.command.CommandCodec;
import io.hikyaku.engine.command.CommandSink;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A journal kept in memory, in the file format ({@link JournalFormat}), written to a file on demand:
 * the simulator records every seed's commands this way, and a seed that fails leaves a file that
 * {@code hikyaku replay} (or {@link JournalReplay}) plays back. Besides what a server records it
 * can record the store faults the simulator injects ({@link #fault}), which the replay repeats.
 * One thread only.
 */
public final class MemoryJournal implements CommandSink {

    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final DataOutputStream out = new DataOutputStream(bytes);
    private final String region;
    private final boolean cooldowns;
    private final String storage;
    private long commands;

    /** {@code region}, {@code cooldowns} and {@code storage} as for {@link JournalWriter}. */
    public MemoryJournal(String region, boolean cooldowns, String storage) {
        this.region = region;
        this.cooldowns = cooldowns;
        this.storage = storage;
        io(() -> JournalFrames.header(out));
    }

    @Override
    public void loaded(long loadedAt, QueueEngine engine) {
        frame(JournalFormat.LOAD, JournalFrames.load(loadedAt, engine, region, cooldowns, storage));
    }

    @Override
    public void applied(Command<?> command) {
        frame(JournalFormat.COMMAND, CommandCodec.encode(command));
        commands++;
    }

    /**
     * The next command's store write number {@code skipWrites} (0-based, empty batches not counted)
     * fails: applied to the store first when {@code applied} (a failed fsync), else not (a full
     * disk); every later write is refused until the next load.
     */
    public void fault(int skipWrites, boolean applied) {
        frame(JournalFormat.FAULT, JournalFrames.fault(skipWrites, applied));
    }

    /** Records the state's digest, as a server's stop does. */
    @Override
    public void stopped(QueueEngine engine) {
        frame(JournalFormat.DIGEST, JournalFrames.digest(engine.digest()));
    }

    public long commands() {
        return commands;
    }

    /** The journal so far, as a file would hold it. */
    public byte[] bytes() {
        return bytes.toByteArray();
    }

    public void writeTo(Path file) throws IOException {
        Files.write(file, bytes());
    }

    private void frame(byte kind, byte[] payload) {
        io(() -> JournalFrames.write(out, kind, payload));
    }

    private interface Io {
        void run() throws IOException;
    }

    private static void io(Io io) {
        try {
            io.run();
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a byte array does not fail
        }
    }
}
