package io.hikyaku.kms;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * An append-only file of KMS commands, one JSON object per line, forced to disk before {@link #append} returns.
 * A torn last line (a crash in the middle of a write, never acknowledged) is cut off at load; damage anywhere
 * else is refused, since skipping a command would silently change the state.
 */
public final class FileKmsJournal implements KmsJournal {

    /** One command line at most: a key policy (32 KiB) and 50 tags fit with room. */
    static final int MAX_LINE_BYTES = 1024 * 1024;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path file;
    private FileChannel channel;

    /**
     * Copies {@code <dataDir>/kms/commands.log} (wrapped key material only) into {@code <target>/kms/}, for a backup
     * taken after the store's checkpoint: every key a checkpointed message needs was logged before that message
     * was written, so it is in the copy (a torn last line, an append under way, is dropped at load). The master key
     * is not copied: it is kept apart from backups (docs/security.md, "Encryption at rest").
     */
    public static void copyInto(Path dataDir, Path target) {
        Path from = dataDir.resolve("kms").resolve("commands.log");
        if (!Files.exists(from)) {
            return;
        }
        try {
            Path dir = target.resolve("kms");
            io.hikyaku.engine.store.OwnerOnly.createDirectories(dir);
            Path to = dir.resolve("commands.log");
            Files.createFile(to, io.hikyaku.engine.store.OwnerOnly.file());
            Files.write(to, Files.readAllBytes(from));
            try (FileChannel ch = FileChannel.open(to, StandardOpenOption.WRITE)) {
                ch.force(true);
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("cannot copy the KMS keys' log into the backup " + target, e);
        }
    }

    public FileKmsJournal(Path dataDir) {
        this.file = dataDir.resolve("kms").resolve("commands.log");
    }

    @Override
    public List<KmsCommand> load() throws IOException {
        io.hikyaku.engine.store.OwnerOnly.createDirectories(file.getParent());
        List<KmsCommand> commands = new ArrayList<>();
        long good = 0;
        if (Files.exists(file)) {
            byte[] all = Files.readAllBytes(file);
            int start = 0;
            while (start < all.length) {
                int end = start;
                while (end < all.length && all[end] != '\n') {
                    end++;
                }
                if (end == all.length) {
                    break; // a torn tail: written, never acknowledged
                }
                String line = new String(all, start, end - start, StandardCharsets.UTF_8);
                try {
                    commands.add(JSON.readValue(line, KmsCommand.class));
                } catch (IOException e) {
                    throw new IOException(file + ": command " + (commands.size() + 1) + " is damaged", e);
                }
                start = end + 1;
                good = start;
            }
        }
        channel = FileChannel.open(file, java.util.Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE),
                io.hikyaku.engine.store.OwnerOnly.file());
        io.hikyaku.engine.store.OwnerOnly.tighten(file);
        channel.truncate(good);
        channel.position(good);
        channel.force(true);
        return commands;
    }

    @Override
    public void append(KmsCommand command) throws IOException {
        byte[] line = (JSON.writeValueAsString(command) + "\n").getBytes(StandardCharsets.UTF_8);
        if (line.length > MAX_LINE_BYTES) {
            throw new IOException("an KMS command of " + line.length + " bytes exceeds the journal's line limit");
        }
        ByteBuffer buffer = ByteBuffer.wrap(line);
        while (buffer.hasRemaining()) {
            channel.write(buffer);
        }
        channel.force(false);
    }

    @Override
    public void close() throws IOException {
        if (channel != null) {
            channel.close();
        }
    }
}
