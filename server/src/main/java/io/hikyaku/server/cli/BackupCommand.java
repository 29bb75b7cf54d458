package io.hikyaku.server.cli;

import static io.hikyaku.server.cli.Flags.valued;

import io.hikyaku.server.admin.AdminFile;
import io.hikyaku.server.admin.OnlineBackupClient;
import io.hikyaku.store.rocksdb.RocksDbStore;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;

/**
 * {@code hikyaku backup}: a consistent copy of a data directory. If a server runs on it (its ADMIN
 * file answers), the server takes an online checkpoint while it keeps serving; otherwise the store
 * is opened here and checkpointed (which fails with "in use" if some process still holds it).
 * Restore = start a server with the copy as its data directory.
 */
final class BackupCommand implements Subcommand {

    private static final Options OPTIONS = Flags.of(
            valued("data-dir", "DIR", "Data directory to back up (default ./data; env HIKYAKU_DATA_DIR)."),
            Option.builder().longOpt("to").hasArg().argName("DIR").required()
                    .desc("Directory to create for the backup (must not exist).").get(),
            valued("timeout-seconds", "SECONDS", "How long to wait for a running server's backup (default 3600)."));

    private final Map<String, String> env;

    BackupCommand(Map<String, String> env) {
        this.env = env;
    }

    @Override
    public String name() {
        return "backup";
    }

    @Override
    public String summary() {
        return "Write a consistent backup of a RocksDB data directory, online if a server runs on it.";
    }

    @Override
    public Options options() {
        return OPTIONS;
    }

    @Override
    public int run(Flags flags, PrintWriter out) throws InterruptedException {
        String fromEnv = env.get("HIKYAKU_DATA_DIR"); // the same directory `serve` would use
        Path fallback = fromEnv == null || fromEnv.isEmpty() ? Path.of("data") : Path.of(fromEnv);
        Path data = flags.path("data-dir", fallback).toAbsolutePath().normalize();
        Path to = flags.path("to").toAbsolutePath().normalize();
        long timeoutSeconds = flags.number("timeout-seconds", 3600);
        if (Files.exists(to)) {
            throw new IllegalStateException("backup target " + to + " already exists");
        }
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
            io.hikyaku.push.FileMappingStore.copyInto(data, to);
            io.hikyaku.kms.KmsCommandLog.copyInto(data, to); // the keys encrypted messages need (not the master key)
        } catch (RuntimeException e) {
            throw unreachable == null ? e : new IllegalStateException(e.getMessage() + " (and its ADMIN file is stale: " + unreachable + ")", e);
        }
        out.println("hikyaku: backed up " + data + " to " + to + " (offline: no server runs on it)");
        return 0;
    }
}
