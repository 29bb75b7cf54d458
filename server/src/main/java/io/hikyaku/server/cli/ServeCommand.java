package io.hikyaku.server.cli;

import io.hikyaku.server.DurabilityMode;
import io.hikyaku.server.HikyakuServer;
import io.hikyaku.server.ServerConfig;
import io.hikyaku.server.StorageMode;
import io.hikyaku.server.config.ConfigFile;
import io.hikyaku.server.config.ConfigResolver;
import io.hikyaku.server.config.EnvironmentSettings;
import io.hikyaku.server.config.Settings;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code hikyaku serve}: runs the server until the process is told to stop. */
@Command(name = "serve", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = "Serve the SQS API. Settings: defaults < --config file < HIKYAKU_* environment < flags.")
final class ServeCommand implements Callable<Integer> {

    private final Map<String, String> env;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--host", description = "Address to bind (default 127.0.0.1; env HIKYAKU_HOST).")
    String host;

    @Option(names = "--port", description = "TCP port, 0 = any free port (default 9324; env HIKYAKU_PORT).")
    Integer port;

    @Option(names = "--account-id", description = "Default 12-digit account id (default 000000000000; env HIKYAKU_ACCOUNT_ID).")
    String accountId;

    @Option(names = "--region", description = "Region in ARNs (default us-east-1; env HIKYAKU_REGION).")
    String region;

    @Option(names = "--advertised-url", description = "Base of returned queue URLs, e.g. http://sqs.local:9324 "
            + "(default: from each request's Host header; env HIKYAKU_ADVERTISED_URL).")
    String advertisedUrl;

    @Option(names = "--config", paramLabel = "FILE", description = "YAML config file with server settings and queues to create.")
    Path configFile;

    @Option(names = "--storage", description = "rocksdb or memory (default rocksdb; env HIKYAKU_STORAGE).")
    StorageMode storage;

    @Option(names = "--data-dir", paramLabel = "DIR", description = "RocksDB data directory (default ./data; env HIKYAKU_DATA_DIR).")
    Path dataDir;

    @Option(names = "--durability", description = "fsync, batch or none (default fsync; env HIKYAKU_DURABILITY).")
    DurabilityMode durability;

    @Option(names = "--max-body-bytes", description = "Largest request body accepted (default 4194304; env HIKYAKU_MAX_BODY_BYTES).")
    Integer maxBodyBytes;

    ServeCommand(Map<String, String> env) {
        this.env = env;
    }

    /** The configuration these flags, the config file and the environment add up to. */
    ServerConfig resolveConfig() {
        ConfigFile file = configFile == null ? ConfigFile.EMPTY : ConfigFile.load(configFile);
        Settings flags = new Settings(host, port, accountId, region, advertisedUrl, storage, dataDir, durability, maxBodyBytes);
        return ConfigResolver.resolve(ServerConfig.defaults(), file, EnvironmentSettings.from(env), flags);
    }

    @Override
    public Integer call() throws InterruptedException {
        ServerConfig config = resolveConfig();
        HikyakuServer server = HikyakuServer.start(config);
        Runtime.getRuntime().addShutdownHook(new Thread(server::close, "hikyaku-shutdown"));
        spec.commandLine().getOut().println("hikyaku " + Version.current() + " serving SQS at " + server.endpoint()
                + " (storage " + describeStorage(config) + ", account " + config.accountId() + ", region " + config.region() + ")");
        spec.commandLine().getOut().flush();
        server.awaitTermination();
        return 0;
    }

    private static String describeStorage(ServerConfig config) {
        String mode = config.storage().name().toLowerCase(Locale.ROOT);
        if (config.storage() == StorageMode.MEMORY) {
            return mode;
        }
        return mode + " in " + config.dataDir() + ", durability " + config.durability().name().toLowerCase(Locale.ROOT);
    }
}
