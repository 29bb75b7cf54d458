package io.hikyaku.journal;

import io.hikyaku.engine.store.OwnerOnly;
import io.hikyaku.engine.QueueEngine;
import io.hikyaku.engine.command.Command;
import io.hikyaku.engine.command.CommandCodec;
import io.hikyaku.engine.command.CommandSink;
import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Appends every applied command of one engine (one engine shard: {@link JournalFiles}) to a journal
 * file ({@link JournalFormat}). Called on that engine's applier thread only, so an append only encodes into a 256 KiB buffer; the buffer goes to the file when full and
 * every {@link #FLUSH_MILLIS} ms from a daemon thread (page cache, no fsync: the journal is a record
 * for replay and diagnosis, not a durability mechanism; the store is). Closing flushes and fsyncs.
 *
 * <p>A write that fails (disk full) stops the journal, with one error in the log; the server goes
 * on serving (the journal then ends early; replay reports what it has). The service's stop
 * ({@link #stopped}) records the final digest and closes the file.
 */
public final class JournalWriter implements CommandSink, AutoCloseable {

    static final long FLUSH_MILLIS = 200;
    private static final Logger LOG = LoggerFactory.getLogger(JournalWriter.class);

    private final Path path;
    private final FileChannel channel;
    private final DataOutputStream out;
    private final String region;
    private final boolean cooldowns;
    private final String storage;
    private final ScheduledExecutorService flusher;
    private boolean failed;
    private boolean closed;
    private long commands;

    /**
     * Opens {@code path} for appending (a new file gets the header; an existing one must be a
     * journal). {@code region} and {@code cooldowns} are the engine's settings and {@code storage}
     * the kind of store it runs on ("rocksdb", "memory"), recorded with each load for the replay.
     */
    public JournalWriter(Path path, String region, boolean cooldowns, String storage) throws IOException {
        this.path = path;
        this.region = region;
        this.cooldowns = cooldowns;
        this.storage = storage;
        boolean fresh = !Files.exists(path) || Files.size(path) == 0;
        if (!fresh) {
            checkHeader(path);
        }
        this.channel = FileChannel.open(path, java.util.EnumSet.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND), OwnerOnly.file());
        var opened = OwnerOnly.tighten(path); // it holds every message body: an older file may have been world-readable
        if (!opened.isEmpty()) {
            LOG.warn("Journal {} was open to other users ({}); now owner-only (rw-------)", path, OwnerOnly.describe(opened));
        }
        this.out = new DataOutputStream(new BufferedOutputStream(java.nio.channels.Channels.newOutputStream(channel),
                256 * 1024));
        if (fresh) {
            JournalFrames.header(out);
        }
        this.flusher = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "journal-flush");
            t.setDaemon(true);
            return t;
        });
        flusher.scheduleWithFixedDelay(this::flush, FLUSH_MILLIS, FLUSH_MILLIS, TimeUnit.MILLISECONDS);
    }

    static void checkHeader(Path path) throws IOException {
        try (InputStream in = Files.newInputStream(path)) {
            byte[] head = in.readNBytes(JournalFormat.MAGIC.length + 1);
            if (head.length < JournalFormat.MAGIC.length + 1 || !Arrays.equals(Arrays.copyOf(head, JournalFormat.MAGIC.length),
                    JournalFormat.MAGIC) || head[JournalFormat.MAGIC.length] != JournalFormat.VERSION) {
                throw new IOException(path + " exists and is not a Hikyaku journal (version " + JournalFormat.VERSION
                        + "): choose another file");
            }
        }
    }

    @Override
    public synchronized void loaded(long loadedAt, QueueEngine engine) {
        frame(JournalFormat.LOAD, JournalFrames.load(loadedAt, engine, region, cooldowns, storage));
    }

    @Override
    public synchronized void applied(Command command) {
        if (failed || closed) {
            return;
        }
        frame(JournalFormat.COMMAND, CommandCodec.encode(command));
        commands++;
    }

    /** Records the final state's digest (read from the store: this runs once, at stop). */
    @Override
    public synchronized void stopped(QueueEngine engine) {
        if (failed || closed) {
            close();
            return;
        }
        try {
            String digest = engine.digest();
            frame(JournalFormat.DIGEST, JournalFrames.digest(digest));
            LOG.info("journal {}: {} commands recorded, state digest at stop {}", path, commands, digest);
        } catch (RuntimeException e) {
            LOG.error("journal {}: the state digest at stop could not be recorded", path, e);
        }
        close(); // nothing follows the stop
    }

    private void frame(byte kind, byte[] payload) {
        if (failed || closed) {
            return;
        }
        try {
            JournalFrames.write(out, kind, payload);
        } catch (IOException e) {
            fail(e);
        }
    }

    /** Hands the buffer to the file (the daemon thread, every {@link #FLUSH_MILLIS} ms). */
    public synchronized void flush() {
        if (failed || closed) {
            return;
        }
        try {
            out.flush();
        } catch (IOException e) {
            fail(e);
        }
    }

    private void fail(IOException e) {
        failed = true;
        LOG.error("journal {} stopped: a write failed; the server goes on without it", path, e);
    }

    /** Commands recorded so far. */
    public synchronized long commands() {
        return commands;
    }

    @Override
    public void close() {
        flusher.shutdownNow();
        synchronized (this) {
            if (closed) {
                return;
            }
            try {
                if (!failed) {
                    out.flush();
                    channel.force(true);
                }
                out.close();
            } catch (IOException e) {
                LOG.error("journal {}: closing failed", path, e);
            } finally {
                closed = true;
            }
        }
    }
}
