package io.hikyaku.server.cli;

import io.hikyaku.store.rocksdb.RocksDbStore;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code hikyaku backup}: writes a consistent copy of a data directory that no server has open
 * (the store refuses with "in use" while one runs). Restore = start a server on the copy.
 */
@Command(name = "backup", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = "Write a consistent backup of a RocksDB data directory (stop the server first).")
final class BackupCommand implements Callable<Integer> {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--data-dir", paramLabel = "DIR", defaultValue = "data", description = "Data directory to back up (default ./data).")
    Path dataDir;

    @Option(names = "--to", paramLabel = "DIR", required = true, description = "Directory to create for the backup (must not exist).")
    Path target;

    @Override
    public Integer call() {
        RocksDbStore.backup(dataDir, target);
        spec.commandLine().getOut().println("hikyaku: backed up " + dataDir.toAbsolutePath() + " to " + target.toAbsolutePath());
        return 0;
    }
}
