package io.hikyaku.kms;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.hikyaku.servicelog.FileServiceLog;
import io.hikyaku.servicelog.ServiceLog;
import io.hikyaku.engine.store.OwnerOnly;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * KMS commands as the records of a {@link ServiceLog}, one JSON object each: {@code <data>/kms/commands.log} on a
 * single node ({@link #inDataDir}, owner-only: wrapped key material), the replicated store in a cluster. A record
 * that does not decode is refused (skipping a command would silently change the state).
 */
public final class KmsCommandLog implements KmsJournal {

    /** The service's name in a store-kept log ({@code hikyaku.svc/kms/...}). */
    public static final String SERVICE = "kms";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final ServiceLog log;

    public KmsCommandLog(ServiceLog log) {
        this.log = log;
    }

    /** The single node's file (an earlier version's journal is read as it is). */
    public static KmsCommandLog inDataDir(Path dataDir) {
        System.Logger warn = System.getLogger(KmsCommandLog.class.getName());
        return new KmsCommandLog(new FileServiceLog(file(dataDir), true, m -> warn.log(System.Logger.Level.WARNING, m)));
    }

    private static Path file(Path dataDir) {
        return dataDir.resolve("kms").resolve("commands.log");
    }

    /**
     * Copies {@code <dataDir>/kms/commands.log} (wrapped key material only) into {@code <target>/kms/}, for a backup
     * taken after the store's checkpoint: every key a checkpointed message needs was logged before that message
     * was written, so it is in the copy (a torn last frame, an append under way, is cut off at load). The master key
     * is not copied: it is kept apart from backups (docs/security.md, "Encryption at rest").
     */
    public static void copyInto(Path dataDir, Path target) {
        Path from = file(dataDir);
        if (!Files.exists(from)) {
            return;
        }
        try {
            Path dir = target.resolve("kms");
            OwnerOnly.createDirectories(dir);
            Path to = dir.resolve("commands.log");
            Files.createFile(to, OwnerOnly.file());
            Files.write(to, Files.readAllBytes(from));
            try (FileChannel ch = FileChannel.open(to, StandardOpenOption.WRITE)) {
                ch.force(true);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot copy the KMS keys' log into the backup " + target, e);
        }
    }

    @Override
    public List<KmsCommand> load() throws IOException {
        List<KmsCommand> commands = new ArrayList<>();
        for (byte[] record : log.replay()) {
            try {
                commands.add(JSON.readValue(record, KmsCommand.class));
            } catch (IOException e) {
                throw new IOException("KMS log: command " + (commands.size() + 1) + " is damaged", e);
            }
        }
        return commands;
    }

    @Override
    public void append(KmsCommand command) throws IOException {
        log.append(JSON.writeValueAsBytes(command));
    }

    @Override
    public void close() throws IOException {
        log.close();
    }
}
