package io.hikyaku.store.rocksdb;

import io.hikyaku.engine.store.OwnerOnly;
import io.hikyaku.engine.store.StoreException;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The highest {@link BatchNumber} known to be fsynced in the WAL. Written after each WAL sync (without
 * its own fsync: a stale value only weakens the check, it never makes a healthy store look damaged).
 * At open, a recovered store whose last batch number is below it has lost acknowledged writes, which
 * point-in-time WAL recovery would otherwise do silently.
 */
final class DurableWatermark implements AutoCloseable {

    static final String NAME = "DURABLE_SEQUENCE";
    /**
     * Guards against a torn or foreign file. Files written before the batch number existed held a
     * RocksDB sequence number under another check word ({@code 0x48696b79616b7521}); they fail this
     * check, so such a store opens without the check until the first sync after a write replaces the file.
     */
    private static final long CHECK = 0x48696b79616b4232L;

    private final FileChannel channel;
    private final ByteBuffer buffer = ByteBuffer.allocate(16);
    private long written;

    private DurableWatermark(FileChannel channel, long written) {
        this.channel = channel;
        this.written = written;
    }

    /** The recorded sequence, or 0 if there is none or it is unreadable. */
    static long read(Path dir) {
        Path file = dir.resolve(NAME);
        try {
            if (!Files.exists(file)) {
                return 0;
            }
            byte[] bytes = Files.readAllBytes(file);
            if (bytes.length < 16) {
                return 0;
            }
            ByteBuffer b = ByteBuffer.wrap(bytes);
            long seq = b.getLong();
            return (b.getLong() == (seq ^ CHECK)) ? seq : 0;
        } catch (IOException e) {
            throw new StoreException("cannot read " + file + ": " + DataDirectory.describe(e), e);
        }
    }

    static DurableWatermark open(Path dir, long current) {
        try {
            FileChannel ch = FileChannel.open(dir.resolve(NAME), java.util.EnumSet.of(StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE), OwnerOnly.file());
            return new DurableWatermark(ch, current);
        } catch (IOException e) {
            throw new StoreException("cannot open " + dir.resolve(NAME) + ": " + DataDirectory.describe(e), e);
        }
    }

    /** Writes and fsyncs a watermark into a directory that is not open (a fresh checkpoint). */
    static void writeDurably(Path dir, long seq) throws IOException {
        try (DurableWatermark w = open(dir, 0)) {
            w.advance(seq);
            w.forceToDisk();
        }
    }

    /** Records that everything up to {@code seq} is durable. Called only by the syncing thread. */
    void advance(long seq) throws IOException {
        if (seq <= written) {
            return;
        }
        buffer.clear();
        buffer.putLong(seq).putLong(seq ^ CHECK).flip();
        while (buffer.hasRemaining()) {
            channel.write(buffer, buffer.position());
        }
        written = seq;
    }

    /** At clean shutdown, after the final WAL sync. */
    void forceToDisk() throws IOException {
        channel.force(false);
    }

    @Override
    public void close() {
        try {
            channel.close();
        } catch (IOException ignored) {
            // only the watermark's freshness is at stake, never data
        }
    }
}
