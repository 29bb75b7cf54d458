package io.hikyaku.server.cli;

import io.hikyaku.server.admin.AdminFile;
import io.hikyaku.server.admin.OnlineBackupClient;
import io.hikyaku.store.rocksdb.RocksDbStore;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code hikyaku backup}: a consistent copy of a data directory. If a server runs on it (its ADMIN
 * file answers), the server takes an online checkpoint while it keeps serving; otherwise the store
 * is opened here and checkpointed (which fails with "in use" if some process still holds it).
 * Restore = start a server with the copy as its data directory.
 */
@Command(name = "backup", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = "Write a consistent backup of a RocksDB data directory, online if a server runs on it.")
final class BackupCommand implements Callable<Integer> {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--data-dir", paramLabel = "DIR", defaultValue = "data", description = "Data directory to back up (default ./data).")
    Path dataDir;

    @Option(names = "--to", paramLabel = "DIR", required = true, description = "Directory to create for the backup (must not exist).")
    Path target;

    @Option(names = "--timeout-seconds", defaultValue = "3600", description = "How long to wait for a running server's backup (default 3600).")
    long timeoutSeconds;

    @Override
    public Integer call() throws InterruptedException {
        Path data = dataDir.toAbsolutePath().normalize();
        Path to = target.toAbsolutePath().normalize();
        if (Files.exists(to)) {
            throw new IllegalStateException("backup target " + to + " already exists");
        }
        PrintWriter out = spec.commandLine().getOut();
        Optional<AdminFile> admin = AdminFile.read(data);
        String unreachable = null;
        if (admin.isPresent()) {
            try {
                long millis = OnlineBackupClient.backup(admin.get(), to, Duration.ofSeconds(timeoutSeconds));
                out.println("hikyaku: backed up the running server's " + data + " to " + to + " (online, " + millis + " ms)");
                return 0;
            } catch (OnlineBackupClient.Unreachable e) {
                unreachable = e.getMessage(); // stale ADMIN file from a crash: try offline
            }
        }
        try {
            RocksDbStore.backup(data, to);
        } catch (RuntimeException e) {
            throw unreachable == null ? e : new IllegalStateException(e.getMessage() + " (and its ADMIN file is stale: " + unreachable + ")", e);
        }
        out.println("hikyaku: backed up " + data + " to " + to + " (offline: no server runs on it)");
        return 0;
    }
}
