package io.hikyaku.servicelog;

import io.hikyaku.engine.store.OwnerOnly;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.zip.CRC32;

/**
 * A single node's service log: one append-only file, {@link #MAGIC} then one frame per record (4-byte length,
 * 4-byte CRC32 of the record, the record; big-endian), forced to disk before {@link #appendAll} returns.
 *
 * <p>At {@link #replay}: a torn or corrupt last frame (a crash in the middle of an append, never acknowledged) is
 * cut off with a warning; a bad frame followed by more data is refused, since skipping a record in the middle
 * would silently change the state. A file without the magic is a command journal of an earlier version (one JSON
 * record a line, no checksum: SNS, KMS and Scheduler kept their commands so): its complete lines are the records,
 * and the file is rewritten once in frames (temp file, fsync, atomic rename), so an upgraded server keeps its
 * topics, keys and schedules.
 */
public final class FileServiceLog implements ServiceLog {

    /** The first bytes of a framed log (a line journal starts with '{'). */
    static final byte[] MAGIC = "HKSVCLOG1\n".getBytes(StandardCharsets.US_ASCII);
    /** One record at most: a service's largest command (a filter policy, a key policy) fits with room. */
    public static final int MAX_RECORD_BYTES = 4 << 20;
    private static final int HEADER = 8;

    private final Path file;
    private final boolean ownerOnly;
    private final Consumer<String> warnings;
    private FileChannel channel;

    /**
     * @param ownerOnly create the file (and its directory) readable by the owner only (KMS: wrapped key material)
     * @param warnings  where a cut-off tail or a converted journal is reported
     */
    public FileServiceLog(Path file, boolean ownerOnly, Consumer<String> warnings) {
        this.file = file;
        this.ownerOnly = ownerOnly;
        this.warnings = warnings;
    }

    public Path file() {
        return file;
    }

    @Override
    public synchronized List<byte[]> replay() throws IOException {
        close(); // a second replay reads the file again and positions a fresh channel
        if (ownerOnly) {
            OwnerOnly.createDirectories(file.getParent());
        } else {
            Files.createDirectories(file.getParent());
        }
        List<byte[]> records = new ArrayList<>();
        long good = MAGIC.length;
        if (Files.exists(file)) {
            byte[] all = Files.readAllBytes(file);
            if (all.length > 0 && !startsWithMagic(all)) {
                records = readLines(all);
                convert(records);
                warnings.accept(file + ": converted a journal of " + records.size()
                        + " records of an earlier version to the framed service log");
                good = Files.size(file);
            } else if (all.length > 0) {
                good = readFrames(all, records);
            }
        }
        if (!Files.exists(file) || Files.size(file) < MAGIC.length) {
            writeFresh(file, List.of()); // new (or torn within the magic: nothing was ever acknowledged)
            good = MAGIC.length;
        }
        channel = ownerOnly
                ? FileChannel.open(file, Set.of(StandardOpenOption.WRITE), OwnerOnly.file())
                : FileChannel.open(file, StandardOpenOption.WRITE);
        if (ownerOnly) {
            OwnerOnly.tighten(file);
        }
        if (channel.size() > good) {
            channel.truncate(good);
            channel.force(true);
        }
        channel.position(good);
        return records;
    }

    private static boolean startsWithMagic(byte[] all) {
        int n = Math.min(all.length, MAGIC.length);
        return Arrays.equals(all, 0, n, MAGIC, 0, n);
    }

    /** Reads the frames after the magic into {@code records}; returns the end of the last good one. */
    private long readFrames(byte[] all, List<byte[]> records) throws IOException {
        int at = Math.min(all.length, MAGIC.length);
        ByteBuffer in = ByteBuffer.wrap(all);
        CRC32 crc = new CRC32();
        while (at < all.length) {
            String bad = null;
            int end = all.length;
            if (all.length - at < HEADER) {
                bad = "a torn frame header";
            } else {
                int length = in.getInt(at);
                int expected = in.getInt(at + 4);
                if (length <= 0 || length > MAX_RECORD_BYTES) {
                    bad = "a frame of impossible length " + length;
                } else if ((long) at + HEADER + length > all.length) {
                    bad = "a torn record (" + length + " bytes announced, " + (all.length - at - HEADER) + " written)";
                } else {
                    crc.reset();
                    crc.update(all, at + HEADER, length);
                    end = at + HEADER + length;
                    if ((int) crc.getValue() != expected) {
                        bad = "a record whose CRC32 does not match";
                    }
                }
            }
            if (bad != null) {
                if (end < all.length && !zeros(all, end)) {
                    throw new IOException(file + ": record " + (records.size() + 1) + " at byte " + at + " is damaged ("
                            + bad + ") and more records follow it; refusing to skip it (restore the file from a backup)");
                }
                warnings.accept(file + ": cut off " + (all.length - at) + " bytes at its end (" + bad
                        + "): an append under way at a crash, never acknowledged");
                return at;
            }
            records.add(Arrays.copyOfRange(all, at + HEADER, end));
            at = end;
        }
        return at;
    }

    private static boolean zeros(byte[] all, int from) {
        for (int i = from; i < all.length; i++) {
            if (all[i] != 0) {
                return false;
            }
        }
        return true;
    }

    /** An earlier version's journal: its complete lines; a last line without its newline was never acknowledged. */
    private List<byte[]> readLines(byte[] all) {
        List<byte[]> records = new ArrayList<>();
        int start = 0;
        while (start < all.length) {
            int end = start;
            while (end < all.length && all[end] != '\n') {
                end++;
            }
            if (end == all.length) {
                warnings.accept(file + ": cut off a torn last line of " + (end - start) + " bytes (never acknowledged)");
                break;
            }
            if (end > start) {
                records.add(Arrays.copyOfRange(all, start, end));
            }
            start = end + 1;
        }
        return records;
    }

    private void convert(List<byte[]> records) throws IOException {
        Path temp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.deleteIfExists(temp);
        writeFresh(temp, records);
        Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        try (FileChannel dir = FileChannel.open(file.getParent(), StandardOpenOption.READ)) {
            dir.force(true);
        } catch (IOException ignored) {
            // some file systems cannot open a directory; the rename is then as durable as they make it
        }
    }

    private void writeFresh(Path target, List<byte[]> records) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(MAGIC);
        out.write(frames(records));
        try (FileChannel ch = ownerOnly
                ? FileChannel.open(target, Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                        StandardOpenOption.TRUNCATE_EXISTING), OwnerOnly.file())
                : FileChannel.open(target, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                        StandardOpenOption.TRUNCATE_EXISTING)) {
            writeFully(ch, ByteBuffer.wrap(out.toByteArray()));
            ch.force(true);
        }
    }

    private static byte[] frames(List<byte[]> records) throws IOException {
        int size = 0;
        for (byte[] r : records) {
            if (r.length == 0 || r.length > MAX_RECORD_BYTES) {
                throw new IOException("a service log record of " + r.length + " bytes (1 to " + MAX_RECORD_BYTES + " allowed)");
            }
            size += HEADER + r.length;
        }
        ByteBuffer out = ByteBuffer.allocate(size);
        CRC32 crc = new CRC32();
        for (byte[] r : records) {
            crc.reset();
            crc.update(r);
            out.putInt(r.length).putInt((int) crc.getValue()).put(r);
        }
        return out.array();
    }

    @Override
    public synchronized void appendAll(List<byte[]> records) throws IOException {
        if (records.isEmpty()) {
            return;
        }
        if (channel == null) {
            throw new IOException(file + " is not open (replay it first)");
        }
        long before = channel.position();
        try {
            writeFully(channel, ByteBuffer.wrap(frames(records)));
            channel.force(false);
        } catch (IOException e) {
            try { // a partial frame would hide the appends after it: cut it off, as a restart would
                channel.truncate(before);
                channel.position(before);
            } catch (IOException ignored) {
                // the caller fails closed on the first exception
            }
            throw e;
        }
    }

    private static void writeFully(FileChannel ch, ByteBuffer buffer) throws IOException {
        while (buffer.hasRemaining()) {
            ch.write(buffer);
        }
    }

    @Override
    public synchronized void close() throws IOException {
        if (channel != null) {
            channel.close();
            channel = null;
        }
    }
}
