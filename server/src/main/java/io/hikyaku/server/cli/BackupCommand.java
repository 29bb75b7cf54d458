package io.hikyaku.server.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code hikyaku backup}: copies a consistent snapshot of a data directory. */
@Command(name = "backup", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = "Write a consistent backup of a RocksDB data directory.")
final class BackupCommand implements Callable<Integer> {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--data-dir", paramLabel = "DIR", defaultValue = "data", description = "Data directory to back up (default ./data).")
    Path dataDir;

    @Option(names = "--to", paramLabel = "DIR", required = true, description = "Directory to write the backup to.")
    Path target;

    @Override
    public Integer call() {
        // TODO(store-rocksdb): call RocksDbStore.backup(dataDir, target) once it is on main.
        spec.commandLine().getErr().println("hikyaku backup: not available in this build yet (the RocksDB store has no backup)");
        return 1;
    }
}
