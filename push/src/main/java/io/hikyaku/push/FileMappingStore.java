package io.hikyaku.push;

import io.hikyaku.engine.store.OwnerOnly;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Mappings as one JSON file ({@code event-source-mappings.json} in the data directory), replaced
 * atomically on every change: write a temporary file, fsync it, rename it over the old one, fsync the
 * directory. A crash leaves either the old or the new file, never a torn one.
 */
public final class FileMappingStore implements MappingStore {

    public static final String FILE_NAME = "event-source-mappings.json";
    private static final int FORMAT = 1;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path file;

    public FileMappingStore(Path dataDir) {
        this.file = dataDir.resolve(FILE_NAME);
    }

    /**
     * Copies the mappings file of {@code dataDir}, if there is one, into {@code backupDir} (a backup of
     * the data directory). The file is only ever replaced by a rename, so the copy is one whole version.
     */
    public static void copyInto(Path dataDir, Path backupDir) {
        Path source = dataDir.resolve(FILE_NAME);
        if (!Files.exists(source)) {
            return;
        }
        try {
            Files.copy(source, backupDir.resolve(FILE_NAME), StandardCopyOption.REPLACE_EXISTING);
            OwnerOnly.tighten(backupDir.resolve(FILE_NAME));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot copy " + source + " into " + backupDir + ": " + e.getMessage(), e);
        }
    }

    @Override
    public List<EventSourceMapping> load() {
        if (!Files.exists(file)) {
            return List.of();
        }
        try {
            JsonNode root = JSON.readTree(file.toFile());
            if (root == null || root.path("format").asInt() != FORMAT) {
                throw new IllegalStateException(file + ": unknown format (expected " + FORMAT + ")");
            }
            List<EventSourceMapping> out = new ArrayList<>();
            for (JsonNode m : root.path("mappings")) {
                out.add(EventSourceMapping.fromStoredJson(m));
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void save(List<EventSourceMapping> mappings) {
        ObjectNode root = JSON.createObjectNode().put("format", FORMAT);
        var list = root.putArray("mappings");
        mappings.forEach(m -> list.add(m.toStoredJson()));
        Path temp = file.resolveSibling(FILE_NAME + ".tmp");
        try {
            OwnerOnly.createDirectories(file.getParent());
            byte[] bytes = JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(root);
            try (FileChannel ch = FileChannel.open(temp, java.util.EnumSet.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING), OwnerOnly.file())) {
                ByteBuffer buf = ByteBuffer.wrap(bytes);
                while (buf.hasRemaining()) {
                    ch.write(buf);
                }
                ch.force(true);
            }
            try {
                Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING);
            }
            try (FileChannel dir = FileChannel.open(file.getParent(), StandardOpenOption.READ)) {
                dir.force(true);
            } catch (IOException ignored) {
                // some file systems cannot open a directory; the rename itself is still atomic
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }
}
