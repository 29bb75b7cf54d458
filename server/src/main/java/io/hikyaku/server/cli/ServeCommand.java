package io.hikyaku.server.cli;

import static io.hikyaku.server.cli.Flags.valued;

import io.hikyaku.server.Cooldowns;
import io.hikyaku.server.DurabilityMode;
import io.hikyaku.identity.Identities;
import io.hikyaku.server.HikyakuServer;
import io.hikyaku.server.IdentityReload;
import io.hikyaku.server.LogFormat;
import io.hikyaku.server.MemoryBudget;
import io.hikyaku.server.logging.LogSetup;
import io.hikyaku.server.SecurityConfig;
import io.hikyaku.server.cluster.ClusterSettings;
import io.hikyaku.server.config.ConfigException;
import io.hikyaku.server.config.ConnectionSettings;
import io.hikyaku.server.http.ConnectionLimits;
import io.hikyaku.server.config.SecuritySettings;
import io.hikyaku.server.ServerConfig;
import io.hikyaku.server.StorageMode;
import io.hikyaku.server.config.ConfigFile;
import io.hikyaku.server.config.ConfigResolver;
import io.hikyaku.server.config.EnvironmentSettings;
import io.hikyaku.server.config.Settings;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import org.apache.commons.cli.Options;

/** {@code hikyaku serve}: runs the server until the process is told to stop. */
final class ServeCommand implements Subcommand {

    private static final Options OPTIONS = Flags.of(
            valued("host", "HOST", "Address to bind (default 127.0.0.1; env HIKYAKU_HOST)."),
            valued("port", "PORT", "TCP port, 0 = any free port (default 9324; env HIKYAKU_PORT)."),
            valued("account-id", "ID", "Default 12-digit account id (default 000000000000; env HIKYAKU_ACCOUNT_ID)."),
            valued("region", "REGION", "Region in ARNs (default us-east-1; env HIKYAKU_REGION)."),
            valued("advertised-url", "URL", "Base of returned queue URLs, e.g. http://sqs.local:9324 "
                    + "(default: from each request's Host header; env HIKYAKU_ADVERTISED_URL)."),
            valued("config", "FILE", "YAML config file with server settings and queues to create (env HIKYAKU_CONFIG)."),
            valued("sam-template", "FILES", "SAM templates whose SQS event source mappings (and queues) to create at start, "
                    + "comma-separated; replaces the config file's samTemplates (env HIKYAKU_SAM_TEMPLATES; see docs/push-delivery.md)."),
            valued("storage", "MODE", "rocksdb or memory (default rocksdb; env HIKYAKU_STORAGE)."),
            valued("data-dir", "DIR", "RocksDB data directory (default ./data; env HIKYAKU_DATA_DIR)."),
            valued("durability", "MODE", "fsync, batch or none (default fsync; env HIKYAKU_DURABILITY)."),
            valued("max-body-bytes", "BYTES", "Largest request body accepted (default 4194304; env HIKYAKU_MAX_BODY_BYTES)."),
            valued("log-format", "FORMAT", "text or json: how log lines are written (default text; env HIKYAKU_LOG_FORMAT)."),
            valued("access-log", "ON_OFF", "on: one log line per request (default off; env HIKYAKU_ACCESS_LOG)."),
            valued("metrics", "ON_OFF", "off: record nothing per request, answer GET /metrics with 404 and the CloudWatch "
                    + "API with no datapoints (default on; env HIKYAKU_METRICS)."),
            valued("engine-shards", "N", "Engines side by side, each owning the accounts that hash to it and running on "
                    + "its own thread: requests for different accounts run in parallel (default 1, max 64; env "
                    + "HIKYAKU_ENGINE_SHARDS)."),
            valued("cooldowns", "MODE", "aws or off: off drops SQS's 60 s waits after PurgeQueue and DeleteQueue, "
                    + "for test suites (default aws; env HIKYAKU_COOLDOWNS)."),
            valued("max-indexed-messages", "N", "Messages (plus FIFO dedup entries) kept in the in-memory index; the rest "
                    + "stay on disk and are paged in as queues drain (default: from the max heap, see docs/operations.md "
                    + "\"Memory\"; env HIKYAKU_MAX_INDEXED_MESSAGES)."),
            valued("index-window", "N", "Per queue, visible messages kept in the in-memory index, 1024..16777216; the "
                    + "rest of a backlog stays on disk and is paged in as the queue drains (default 65536; "
                    + "env HIKYAKU_INDEX_WINDOW; see docs/operations.md \"Memory\")."),
            valued("journal", "FILE", "Append every command the engine applies to FILE, for `hikyaku replay`; with several "
                    + "engine shards, shard i of N appends to FILE.shard-i-of-N "
                    + "(default off; env HIKYAKU_JOURNAL; see engine/ENGINE.md \"Journal\")."),
            valued("auth", "MODE", "none or sigv4 (default none; env HIKYAKU_AUTH). sigv4 verifies every signature "
                    + "against the accounts of the config file."),
            Flags.toggle("localstack-parity", "Answer as Testcontainers' LocalStack module expects: port 4566 unless a port is "
                    + "given, a 'Ready.' line once serving, GET /_localstack/health (env HIKYAKU_LOCALSTACK_PARITY=true; "
                    + "see docs/moving-from-other-emulators.md)."),
            Flags.toggle("allow-unauthenticated", "Permit auth none on a non-loopback address (env HIKYAKU_ALLOW_UNAUTHENTICATED=true)."),
            valued("allowed-hosts", "HOSTS", "With auth none, comma-separated host names browsers may reach the server by, besides IP "
                    + "addresses, localhost and the --host/--advertised-url host (.example.com: its subdomains; *: any); "
                    + "guards against DNS rebinding (env HIKYAKU_ALLOWED_HOSTS; see docs/security.md)."),
            valued("outbound-allow", "LIST", "Where SNS HTTP/S subscriptions may be delivered: comma-separated CIDRs, host "
                    + "names, .suffixes or * (default loopback only: 127.0.0.0/8,::1/128,localhost; env HIKYAKU_OUTBOUND_ALLOW; see docs/sns.md)."),
            valued("outbound-ca", "PEM", "CA (or self-signed) certificates SNS HTTPS deliveries trust besides the JVM's "
                    + "trust store (env HIKYAKU_OUTBOUND_CA; see docs/sns.md)."),
            valued("tls-cert", "PEM", "Certificate chain for HTTPS (env HIKYAKU_TLS_CERT); needs --tls-key."),
            valued("tls-key", "PEM", "PKCS#8 private key for HTTPS (env HIKYAKU_TLS_KEY)."),
            valued("tls-port", "PORT", "Serve HTTPS on this second port and HTTP on --port (default: HTTPS on --port; env HIKYAKU_TLS_PORT)."),
            valued("metrics-token-file", "FILE", "GET /metrics requires `Authorization: Bearer <the file's content>` "
                    + "(env HIKYAKU_METRICS_TOKEN_FILE); with --auth sigv4 and no token every scrape is refused."),
            valued("max-connections", "N", "Open connections at most; more are closed at once (default 24000; "
                    + "env HIKYAKU_MAX_CONNECTIONS; see docs/security.md \"Connection limits\")."),
            valued("max-connections-per-address", "N", "Open connections from one source IP address at most, "
                    + "at most --max-connections (default 12000; env HIKYAKU_MAX_CONNECTIONS_PER_ADDRESS)."),
            valued("request-head-timeout", "SECONDS", "Time a client has to send a request line and headers; then the "
                    + "connection is closed (default 20; env HIKYAKU_REQUEST_HEAD_TIMEOUT)."),
            valued("request-body-timeout", "SECONDS", "Time a client has to send a request body once its head has "
                    + "arrived (default 120; env HIKYAKU_REQUEST_BODY_TIMEOUT)."),
            valued("node-id", "ID", "This node's id among the --cluster peers (env HIKYAKU_NODE_ID)."),
            valued("cluster", "PEERS", "Run as a node of a replicated cluster: every member's id and Raft address, "
                    + "e.g. n1=10.0.0.1:9601,n2=10.0.0.2:9601,n3=10.0.0.3:9601 (needs --storage rocksdb, --node-id and the same "
                    + "HIKYAKU_MASTER_KEY_FILE on every node; "
                    + "env HIKYAKU_CLUSTER; see docs/operations.md \"Cluster\")."));

    private final Map<String, String> env;

    ServeCommand(Map<String, String> env) {
        this.env = env;
    }

    @Override
    public String name() {
        return "serve";
    }

    @Override
    public String summary() {
        return "Serve the SQS API. Settings: defaults < --config file < HIKYAKU_* environment < flags.";
    }

    @Override
    public Options options() {
        return OPTIONS;
    }

    /** The configuration {@code args} (the flags after "serve"), the config file and the environment add up to. */
    ServerConfig resolveConfig(String... args) {
        return resolveConfig(Flags.parse(OPTIONS, args));
    }

    private ServerConfig resolveConfig(Flags flags) {
        Path configFile = flags.path("config");
        String fromEnv = env.get("HIKYAKU_CONFIG");
        if (configFile == null && fromEnv != null && !fromEnv.isEmpty()) {
            configFile = Path.of(fromEnv);
        }
        ConfigFile file = configFile == null ? ConfigFile.EMPTY : ConfigFile.load(configFile);
        Settings given = new Settings(flags.string("host"), flags.integer("port"), flags.string("account-id"),
                flags.string("region"), flags.string("advertised-url"), flags.choice("storage", StorageMode.class),
                flags.path("data-dir"), flags.choice("durability", DurabilityMode.class), flags.integer("max-body-bytes"),
                flags.choice("log-format", LogFormat.class), onOff(flags, "access-log"), flags.choice("cooldowns", Cooldowns.class),
                positive(flags, "max-indexed-messages"), flags.path("journal"), onOff(flags, "metrics"),
                indexWindow(flags), positiveInt(flags, "engine-shards"), flags.has("localstack-parity") ? Boolean.TRUE : null);
        String templates = flags.string("sam-template");
        if (templates == null) {
            templates = env.get("HIKYAKU_SAM_TEMPLATES");
        }
        return ConfigResolver.resolve(ServerConfig.defaults(), file, EnvironmentSettings.from(env), given, paths(templates));
    }

    /** A comma-separated list of files; null or empty: not given. */
    private static java.util.List<Path> paths(String list) {
        if (list == null || list.isBlank()) {
            return null;
        }
        return java.util.Arrays.stream(list.split(",")).map(String::trim).filter(s -> !s.isEmpty()).map(Path::of).toList();
    }

    private static Integer positiveInt(Flags flags, String name) {
        Long v = positive(flags, name);
        if (v != null && v > Integer.MAX_VALUE) {
            throw new UsageException("invalid value for --" + name + ": '" + flags.string(name) + "' is too large");
        }
        return v == null ? null : v.intValue();
    }

    private static Long positive(Flags flags, String name) {
        Long v = flags.number(name);
        if (v != null && v < 1) {
            throw new UsageException("invalid value for --" + name + ": '" + flags.string(name) + "' must be at least 1");
        }
        return v;
    }

    private static Long indexWindow(Flags flags) {
        Long v = flags.number("index-window");
        if (v != null && (v < ServerConfig.MIN_INDEX_WINDOW || v > ServerConfig.MAX_INDEX_WINDOW)) {
            throw new UsageException("invalid value for --index-window: " + ServerConfig.indexWindowRule(v));
        }
        return v;
    }

    private static Boolean onOff(Flags flags, String name) {
        String v = flags.string(name);
        if (v == null) {
            return null;
        }
        return switch (v.trim().toLowerCase(Locale.ROOT)) {
            case "on", "true", "yes" -> Boolean.TRUE;
            case "off", "false", "no" -> Boolean.FALSE;
            default -> throw new UsageException("invalid value for --" + name + ": '" + v + "' (expected on or off)");
        };
    }

    /** The security settings {@code args}, the config file and the environment add up to, with the file's identities. */
    SecurityConfig resolveSecurity(String... args) {
        return resolveSecurity(Flags.parse(OPTIONS, args));
    }

    private SecurityConfig resolveSecurity(Flags flags) {
        Path configFile = flags.path("config");
        ConfigFile file = configFile == null ? ConfigFile.EMPTY : ConfigFile.load(configFile);
        Identities identities = IdentityReload.load(configFile, env::get); // the same checks as a reload (SIGHUP)
        SecuritySettings given = new SecuritySettings(SecuritySettings.auth("--auth", flags.string("auth")),
                flags.has("allow-unauthenticated") ? Boolean.TRUE : null, flags.path("tls-cert"), flags.path("tls-key"),
                flags.integer("tls-port"), SecuritySettings.hostList(flags.string("allowed-hosts")), flags.path("metrics-token-file"),
                flags.string("outbound-allow"), flags.path("outbound-ca"));
        try {
            SecurityConfig c = file.security().applyTo(SecurityConfig.defaults().withIdentities(identities));
            c = SecuritySettings.fromEnvironment(env).applyTo(c);
            return given.applyTo(c);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(e.getMessage(), e);
        }
    }

    /** The connection limits {@code args}, the config file and the environment add up to, over the defaults. */
    ConnectionLimits resolveConnectionLimits(String... args) {
        return resolveConnectionLimits(Flags.parse(OPTIONS, args));
    }

    private ConnectionLimits resolveConnectionLimits(Flags flags) {
        Path configFile = flags.path("config");
        String fromEnv = env.get("HIKYAKU_CONFIG");
        if (configFile == null && fromEnv != null && !fromEnv.isEmpty()) {
            configFile = Path.of(fromEnv);
        }
        ConfigFile file = configFile == null ? ConfigFile.EMPTY : ConfigFile.load(configFile);
        String[] names = {"max-connections", "max-connections-per-address", "request-head-timeout", "request-body-timeout"};
        String[] values = new String[names.length];
        for (int i = 0; i < names.length; i++) {
            values[i] = flags.string(names[i]);
            names[i] = "--" + names[i];
        }
        ConnectionSettings given = ConnectionSettings.parse(names, values);
        ConnectionSettings environment = ConnectionSettings.fromEnvironment(env);
        ConnectionSettings fromFile = file.connections() == null ? ConnectionSettings.NONE : file.connections();
        return ConnectionSettings.layered(fromFile, environment, given).applyTo(ConnectionLimits.DEFAULTS);
    }

    /** The cluster settings {@code args}, the config file and the environment add up to (NONE: a single node). */
    ClusterSettings resolveCluster(String... args) {
        return resolveCluster(Flags.parse(OPTIONS, args));
    }

    private ClusterSettings resolveCluster(Flags flags) {
        Path configFile = flags.path("config");
        String fromEnv = env.get("HIKYAKU_CONFIG");
        if (configFile == null && fromEnv != null && !fromEnv.isEmpty()) {
            configFile = Path.of(fromEnv);
        }
        ConfigFile file = configFile == null ? ConfigFile.EMPTY : ConfigFile.load(configFile);
        ClusterSettings given = new ClusterSettings(flags.string("node-id"), flags.string("cluster"));
        return given.over(ClusterSettings.fromEnvironment(env).over(file.cluster()));
    }

    @Override
    public int run(Flags flags, PrintWriter out) throws InterruptedException {
        ServerConfig config = resolveConfig(flags);
        LogSetup.apply(config.logFormat(), config.accessLog());
        SecurityConfig security = resolveSecurity(flags);
        ConnectionLimits limits = resolveConnectionLimits(flags);
        ClusterSettings cluster = resolveCluster(flags);
        HikyakuServer server = HikyakuServer.start(config, security, limits, cluster);
        ReloadSignal.install(new IdentityReload(flags.path("config"), env::get, server));
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            out.println("hikyaku stopping: answering parked long polls, finishing requests in flight");
            out.flush();
            server.close();
            out.println("hikyaku stopped");
            out.flush();
        }, "hikyaku-shutdown"));
        String https = server.tlsEndpoint() != null && !server.tlsEndpoint().equals(server.endpoint()) ? " and " + server.tlsEndpoint() : "";
        out.println("hikyaku " + Version.current() + " serving SQS at " + server.endpoint() + https
                + " (storage " + describeStorage(config) + ", account " + config.accountId() + ", region " + config.region()
                + (config.cooldowns() == Cooldowns.OFF ? ", cooldowns off" : "")
                + (config.metrics() ? "" : ", metrics off")
                + ", index budget " + MemoryBudget.resolve(config.maxIndexedMessages()) + " messages"
                + (config.engineShards() > 1 ? ", " + config.engineShards() + " engine shards" : "")
                + (config.indexWindow() != ServerConfig.DEFAULT_INDEX_WINDOW ? ", index window " + config.indexWindow() : "")
                + (config.journal() != null ? ", journal " + config.journal()
                        + (config.engineShards() > 1 ? ".shard-*-of-" + config.engineShards() : "") : "")
                + (cluster.enabled() ? ", cluster node " + cluster.nodeId() : "")
                + (config.localStackParity() ? ", LocalStack parity" : "")
                + ", auth " + security.auth().name().toLowerCase(Locale.ROOT) + ")");
        if (config.localStackParity()) {
            out.println("Ready."); // the line LocalStackContainer waits for: printed only once the port answers
        }
        out.flush();
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
