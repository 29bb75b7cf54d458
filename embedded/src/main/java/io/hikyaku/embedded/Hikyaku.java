package io.hikyaku.embedded;

import io.hikyaku.identity.Identities;
import io.hikyaku.server.Cooldowns;
import io.hikyaku.server.DurabilityMode;
import io.hikyaku.server.HikyakuServer;
import io.hikyaku.server.IdentityReload;
import io.hikyaku.server.QueueDefinition;
import io.hikyaku.server.SecurityConfig;
import io.hikyaku.server.ServerConfig;
import io.hikyaku.server.StorageMode;
import io.hikyaku.server.config.ConfigException;
import io.hikyaku.server.config.ConfigFile;
import io.hikyaku.server.config.ConfigResolver;
import io.hikyaku.server.config.Settings;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * A Hikyaku server inside this JVM: {@code Hikyaku.builder().port(0).inMemory().start()}.
 *
 * <p>Each instance owns its listener, event loops, engine, store and metrics registry; nothing is
 * process-wide (no logging set-up, shutdown hook or signal handler: those belong to {@code hikyaku serve}),
 * so several may run side by side. Defaults differ from {@code hikyaku serve} where a test wants it:
 * any free port on 127.0.0.1, memory storage, no SQS cooldowns after PurgeQueue/DeleteQueue.
 * The process environment is not read: only what the builder (and its config file) says applies.
 */
public final class Hikyaku implements AutoCloseable {

    private final HikyakuServer server;

    private Hikyaku(HikyakuServer server) {
        this.server = server;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The base URI to give an SDK client's {@code endpointOverride}, e.g. {@code http://127.0.0.1:41234}. */
    public URI endpoint() {
        return URI.create(server.endpoint());
    }

    /** The port the server listens on (the chosen one when built with port 0). */
    public int port() {
        return server.port();
    }

    /** The queue URL of {@code name} in the default account, as the server's GetQueueUrl returns it. */
    public String queueUrl(String name) {
        return server.endpoint() + "/" + server.config().accountId() + "/" + name;
    }

    /** The configuration the server runs with. */
    public ServerConfig config() {
        return server.config();
    }

    /**
     * Waits until every request the server received is answered and SNS has no delivery pending or in flight
     * ({@link HikyakuServer#awaitIdle}): a test can then assert on what its calls caused, without sleeping.
     *
     * @throws IllegalStateException when the server is not idle within {@code timeout}
     */
    public void awaitIdle(java.time.Duration timeout) {
        try {
            if (!server.awaitIdle(timeout)) {
                throw new IllegalStateException("the server was not idle within " + timeout);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the server to be idle", e);
        }
    }

    /** The underlying server, for what this wrapper does not expose (metrics, CloudWatch history). */
    public HikyakuServer server() {
        return server;
    }

    /** Answers parked long polls, finishes requests in flight, closes the store. Idempotent. */
    @Override
    public void close() {
        server.close();
    }

    /** Settings for one embedded server; {@link #start()} may be called more than once (a server each). */
    public static final class Builder {
        private Path configFile;
        private final List<UnaryOperator<ServerConfig>> settings = new ArrayList<>();
        private final List<QueueDefinition> queues = new ArrayList<>();
        private SecurityConfig security;

        private Builder() {
            // Test-friendly defaults, applied before (so overridden by) the config file and the builder's settings.
        }

        /** TCP port; 0 (the default) picks a free one. */
        public Builder port(int port) {
            return with(c -> c.withPort(port));
        }

        /** Address to bind (default 127.0.0.1). */
        public Builder host(String host) {
            return with(c -> c.withHost(host));
        }

        /** Keep everything in memory (the default): nothing survives {@link #close()}. */
        public Builder inMemory() {
            return with(c -> c.withStorage(StorageMode.MEMORY));
        }

        /** Durable RocksDB storage in {@code dir} (created if missing). */
        public Builder dataDir(Path dir) {
            Objects.requireNonNull(dir, "dir");
            return with(c -> c.withStorage(StorageMode.ROCKSDB).withDataDir(dir));
        }

        public Builder durability(DurabilityMode mode) {
            return with(c -> c.withDurability(mode));
        }

        public Builder accountId(String accountId) {
            return with(c -> c.withAccountId(accountId));
        }

        public Builder region(String region) {
            return with(c -> c.withRegion(region));
        }

        /** Base of returned queue URLs; default: from each request's Host header. */
        public Builder advertisedUrl(String url) {
            return with(c -> c.withAdvertisedUrl(url));
        }

        /** SQS's 60 s waits after PurgeQueue and DeleteQueue (default off here). */
        public Builder cooldowns(Cooldowns cooldowns) {
            return with(c -> c.withCooldowns(cooldowns));
        }

        /** The clock the server reads (visibility timeouts, delays, retention): inject one to test time. */
        public Builder clock(Clock clock) {
            return with(c -> c.withClock(clock));
        }

        public Builder metrics(boolean on) {
            return with(c -> c.withMetrics(on));
        }

        /** A queue created before the port opens (in addition to the config file's). */
        public Builder queue(String name, Map<String, String> attributes) {
            queues.add(new QueueDefinition(name, attributes, Map.of(), null, null));
            return this;
        }

        /** The YAML file {@code hikyaku serve --config} reads: settings, queues, accounts and auth. */
        public Builder config(Path file) {
            this.configFile = Objects.requireNonNull(file, "file");
            return this;
        }

        /** Any other server setting, e.g. {@code .configure(c -> c.withIndexWindow(4096))}. */
        public Builder configure(UnaryOperator<ServerConfig> setting) {
            return with(Objects.requireNonNull(setting, "setting"));
        }

        /** Authentication and TLS (default: the config file's, else auth none on loopback). */
        public Builder security(SecurityConfig security) {
            this.security = Objects.requireNonNull(security, "security");
            return this;
        }

        private Builder with(UnaryOperator<ServerConfig> setting) {
            settings.add(setting);
            return this;
        }

        /** The configuration {@link #start()} would run with. */
        public ServerConfig resolve() {
            ServerConfig base = ServerConfig.defaults().withPort(0).withStorage(StorageMode.MEMORY)
                    .withCooldowns(Cooldowns.OFF);
            ConfigFile file = configFile == null ? ConfigFile.EMPTY : ConfigFile.load(configFile);
            ServerConfig c = ConfigResolver.resolve(base, file, Settings.NONE, Settings.NONE);
            for (UnaryOperator<ServerConfig> s : settings) {
                c = s.apply(c);
            }
            if (!queues.isEmpty()) {
                List<QueueDefinition> all = new ArrayList<>(c.queues());
                all.addAll(queues);
                c = c.withQueues(all);
            }
            return c;
        }

        private SecurityConfig resolveSecurity() {
            if (security != null) {
                return security;
            }
            if (configFile == null) {
                return SecurityConfig.defaults();
            }
            ConfigFile file = ConfigFile.load(configFile);
            Identities identities = IdentityReload.load(configFile, name -> null);
            try {
                return file.security().applyTo(SecurityConfig.defaults().withIdentities(identities));
            } catch (IllegalArgumentException e) {
                throw new ConfigException(e.getMessage(), e);
            }
        }

        /** Starts a server; it is serving (its configured queues created) when this returns. */
        public Hikyaku start() {
            return new Hikyaku(HikyakuServer.start(resolve(), resolveSecurity()));
        }
    }
}
