package io.hikyaku.server;

import io.hikyaku.push.PushConfig;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Objects;

/**
 * Everything the server needs to start; immutable, changed with the {@code withX} methods.
 *
 * @param host          the address to bind (only that one)
 * @param port          the TCP port; 0 picks a free ephemeral port
 * @param accountId     the account used when a request names none (12 digits)
 * @param region        the region written into ARNs
 * @param advertisedUrl scheme+host+port that returned queue URLs start with; null = from each
 *                      request's Host header
 * @param storage       where state lives
 * @param dataDir       the ROCKSDB data directory
 * @param durability    the ROCKSDB durability level
 * @param clock         the only time source of the service
 * @param queues        queues to create at start (dead-letter queues are created first)
 * @param maxBodyBytes  largest accepted HTTP request body; larger ones are refused with 413
 * @param logFormat     log lines as text or JSON
 * @param accessLog     one log line per request (logger {@code hikyaku.access})
 * @param cooldowns     whether SQS's 60-second waits (purge, deleted names) apply
 * @param push          functions and event source mappings for push delivery (docs/push-delivery.md)
 * @param maxIndexedMessages the engine's index budget (messages plus FIFO dedup entries in memory);
 *                      0 = derived from the max heap ({@link MemoryBudget})
 * @param journal       where to append every command the engine applies (ENGINE.md "Journal"); with several
 *                      engine shards, each shard i appends to {@code journal.shard-i-of-N}; null = no journal
 * @param metrics       off: nothing is recorded per request, no {@code /metrics}, and the CloudWatch API
 *                      answers with no datapoints (docs/operations.md "Monitoring")
 * @param engineShards  engines side by side, each owning the accounts that hash to it, each on its own
 *                      thread (docs/architecture.md "Engine shards"); 1 = one engine for everything
 * @param indexWindow   per queue, visible messages kept in the in-memory index at most (the rest stay on
 *                      disk, paged in as the queue drains; ENGINE.md "Memory"); {@link #MIN_INDEX_WINDOW}..{@link #MAX_INDEX_WINDOW}
 * @param localStackParity answer as Testcontainers' LocalStack module expects: port {@link #LOCALSTACK_PORT} unless a
 *                      port is given, a {@code Ready.} line once serving, {@code GET /_localstack/health}
 *                      (docs/moving-from-other-emulators.md)
 */
public record ServerConfig(String host, int port, String accountId, String region, String advertisedUrl,
                           StorageMode storage, Path dataDir, DurabilityMode durability, Clock clock,
                           List<QueueDefinition> queues, int maxBodyBytes, LogFormat logFormat, boolean accessLog,
                           Cooldowns cooldowns, PushConfig push, long maxIndexedMessages, Path journal, boolean metrics,
                           long indexWindow, int engineShards, boolean localStackParity) {

    /** Engines side by side at most (each has an engine thread and a timer thread). */
    public static final int MAX_ENGINE_SHARDS = 64;
    public static final String DEFAULT_HOST = "127.0.0.1";
    public static final int DEFAULT_PORT = 9324;
    /** LocalStack's edge port: the default port with {@code --localstack-parity}. */
    public static final int LOCALSTACK_PORT = 4566;
    public static final String DEFAULT_ACCOUNT_ID = "000000000000";
    public static final String DEFAULT_REGION = "us-east-1";
    public static final Path DEFAULT_DATA_DIR = Path.of("data");
    /**
     * 4 MiB. SQS caps a message or a batch at 1 MiB of payload, but the Query protocol
     * percent-encodes the form body (a byte can become 3) and adds parameter names, and JSON escapes
     * some characters; 4 MiB admits every valid request with headroom and still bounds memory.
     */
    public static final int DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;
    /** The engine's default per-queue index window (65,536 visible messages, ~6-10 MiB of heap a full queue). */
    public static final long DEFAULT_INDEX_WINDOW = io.hikyaku.engine.QueueEngine.DEFAULT_INDEX_WINDOW;
    /** Below one page-in (1,024 messages) a draining queue would page in for nearly every receive. */
    public static final long MIN_INDEX_WINDOW = 1_024;
    /** 16 Mi messages: ~2 GiB of heap for one full queue; past that the window bounds nothing useful. */
    public static final long MAX_INDEX_WINDOW = 16L << 20;

    public ServerConfig {
        if (engineShards < 1 || engineShards > MAX_ENGINE_SHARDS) {
            throw new IllegalArgumentException("--engine-shards must be 1.." + MAX_ENGINE_SHARDS + " (HIKYAKU_ENGINE_SHARDS, engineShards in the config file), not " + engineShards);
        }
        Objects.requireNonNull(host, "host");
        if (host.isBlank()) {
            throw new IllegalArgumentException("host must not be empty (an address or name to bind, e.g. 127.0.0.1 or 0.0.0.0)");
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port must be 0..65535: " + port);
        }
        if (accountId == null || !accountId.matches("\\d{12}")) {
            throw new IllegalArgumentException("account id must be 12 digits: " + accountId);
        }
        Objects.requireNonNull(region, "region");
        if (!region.matches("[A-Za-z0-9-]+")) {
            // It becomes part of every ARN (arn:aws:sqs:REGION:...): empty or with ':' it would break them.
            throw new IllegalArgumentException("region must be letters, digits and '-', e.g. us-east-1: '" + region + "'");
        }
        if (advertisedUrl != null) {
            advertisedUrl = stripTrailingSlash(advertisedUrl);
            checkAdvertisedUrl(advertisedUrl);
        }
        Objects.requireNonNull(storage, "storage");
        Objects.requireNonNull(dataDir, "dataDir");
        Objects.requireNonNull(durability, "durability");
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(cooldowns, "cooldowns");
        push = push == null ? PushConfig.NONE : push;
        queues = List.copyOf(queues);
        Objects.requireNonNull(logFormat, "logFormat");
        if (maxBodyBytes < 1024) {
            throw new IllegalArgumentException("max body bytes must be at least 1024: " + maxBodyBytes);
        }
        if (maxIndexedMessages < 0) {
            throw new IllegalArgumentException("max indexed messages must be at least 1 (0 = from the heap): " + maxIndexedMessages);
        }
        if (indexWindow < MIN_INDEX_WINDOW || indexWindow > MAX_INDEX_WINDOW) {
            throw new IllegalArgumentException(indexWindowRule(indexWindow));
        }
    }

    /** 127.0.0.1:9324, account 000000000000, us-east-1, RocksDB in ./data with fsync, system clock. */
    public static ServerConfig defaults() {
        return new ServerConfig(DEFAULT_HOST, DEFAULT_PORT, DEFAULT_ACCOUNT_ID, DEFAULT_REGION, null,
                StorageMode.ROCKSDB, DEFAULT_DATA_DIR, DurabilityMode.FSYNC, Clock.systemUTC(), List.of(),
                DEFAULT_MAX_BODY_BYTES, LogFormat.TEXT, false, Cooldowns.AWS, PushConfig.NONE, 0, null, true,
                DEFAULT_INDEX_WINDOW, 1, false);
    }

    public ServerConfig withHost(String value) {
        return new ServerConfig(value, port, accountId, region, advertisedUrl, storage, dataDir, durability, clock, queues, maxBodyBytes, logFormat, accessLog, cooldowns, push, maxIndexedMessages, journal, metrics, indexWindow, engineShards, localStackParity);
    }

    public ServerConfig withPort(int value) {
        return new ServerConfig(host, value, accountId, region, advertisedUrl, storage, dataDir, durability, clock, queues, maxBodyBytes, logFormat, accessLog, cooldowns, push, maxIndexedMessages, journal, metrics, indexWindow, engineShards, localStackParity);
    }

    public ServerConfig withAccountId(String value) {
        return new ServerConfig(host, port, value, region, advertisedUrl, storage, dataDir, durability, clock, queues, maxBodyBytes, logFormat, accessLog, cooldowns, push, maxIndexedMessages, journal, metrics, indexWindow, engineShards, localStackParity);
    }

    public ServerConfig withRegion(String value) {
        return new ServerConfig(host, port, accountId, value, advertisedUrl, storage, dataDir, durability, clock, queues, maxBodyBytes, logFormat, accessLog, cooldowns, push, maxIndexedMessages, journal, metrics, indexWindow, engineShards, localStackParity);
    }

    /** null means: build queue URLs from each request's Host header. */
    public ServerConfig withAdvertisedUrl(String value) {
        return new ServerConfig(host, port, accountId, region, value, storage, dataDir, durability, clock, queues, maxBodyBytes, logFormat, accessLog, cooldowns, push, maxIndexedMessages, journal, metrics, indexWindow, engineShards, localStackParity);
    }

    public ServerConfig withStorage(StorageMode value) {
        return new ServerConfig(host, port, accountId, region, advertisedUrl, value, dataDir, durability, clock, queues, maxBodyBytes, logFormat, accessLog, cooldowns, push, maxIndexedMessages, journal, metrics, indexWindow, engineShards, localStackParity);
    }

    public ServerConfig withDataDir(Path value) {
        return new ServerConfig(host, port, accountId, region, advertisedUrl, storage, value, durability, clock, queues, maxBodyBytes, logFormat, accessLog, cooldowns, push, maxIndexedMessages, journal, metrics, indexWindow, engineShards, localStackParity);
    }

    public ServerConfig withDurability(DurabilityMode value) {
        return new ServerConfig(host, port, accountId, region, advertisedUrl, storage, dataDir, value, clock, queues, maxBodyBytes, logFormat, accessLog, cooldowns, push, maxIndexedMessages, journal, metrics, indexWindow, engineShards, localStackParity);
    }

    public ServerConfig withClock(Clock value) {
        return new ServerConfig(host, port, accountId, region, advertisedUrl, storage, dataDir, durability, value, queues, maxBodyBytes, logFormat, accessLog, cooldowns, push, maxIndexedMessages, journal, metrics, indexWindow, engineShards, localStackParity);
    }

    public ServerConfig withQueues(List<QueueDefinition> value) {
        return new ServerConfig(host, port, accountId, region, advertisedUrl, storage, dataDir, durability, clock, value, maxBodyBytes, logFormat, accessLog, cooldowns, push, maxIndexedMessages, journal, metrics, indexWindow, engineShards, localStackParity);
    }

    public ServerConfig withMaxBodyBytes(int value) {
        return new ServerConfig(host, port, accountId, region, advertisedUrl, storage, dataDir, durability, clock, queues, value, logFormat, accessLog, cooldowns, push, maxIndexedMessages, journal, metrics, indexWindow, engineShards, localStackParity);
    }

    public ServerConfig withLogFormat(LogFormat value) {
        return new ServerConfig(host, port, accountId, region, advertisedUrl, storage, dataDir, durability, clock, queues, maxBodyBytes, value, accessLog, cooldowns, push, maxIndexedMessages, journal, metrics, indexWindow, engineShards, localStackParity);
    }

    public ServerConfig withAccessLog(boolean value) {
        return new ServerConfig(host, port, accountId, region, advertisedUrl, storage, dataDir, durability, clock, queues, maxBodyBytes, logFormat, value, cooldowns, push, maxIndexedMessages, journal, metrics, indexWindow, engineShards, localStackParity);
    }

    public ServerConfig withPush(PushConfig value) {
        return new ServerConfig(host, port, accountId, region, advertisedUrl, storage, dataDir, durability, clock, queues, maxBodyBytes, logFormat, accessLog, cooldowns, value, maxIndexedMessages, journal, metrics, indexWindow, engineShards, localStackParity);
    }

    /** A queue URL is this plus {@code /account/name}: a query or fragment would end up in the middle of it. */
    private static void checkAdvertisedUrl(String url) {
        if (!url.startsWith("http://") && !url.startsWith("https://")) {
            throw new IllegalArgumentException("advertised URL must start with http:// or https://: " + url);
        }
        java.net.URI uri;
        try {
            uri = new java.net.URI(url);
        } catch (java.net.URISyntaxException e) {
            throw new IllegalArgumentException("advertised URL is not a valid URL: " + url + " (" + e.getReason() + ")");
        }
        if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
            throw new IllegalArgumentException("advertised URL must not have a query or fragment: " + url);
        }
        if (uri.getHost() == null || uri.getHost().isEmpty()) {
            throw new IllegalArgumentException("advertised URL must name a host: " + url);
        }
    }

    public ServerConfig withCooldowns(Cooldowns value) {
        return new ServerConfig(host, port, accountId, region, advertisedUrl, storage, dataDir, durability, clock, queues,
                maxBodyBytes, logFormat, accessLog, value, push, maxIndexedMessages, journal, metrics, indexWindow, engineShards, localStackParity);
    }

    /** The index budget; 0 = derived from the max heap. */
    public ServerConfig withMaxIndexedMessages(long value) {
        return new ServerConfig(host, port, accountId, region, advertisedUrl, storage, dataDir, durability, clock, queues,
                maxBodyBytes, logFormat, accessLog, cooldowns, push, value, journal, metrics, indexWindow, engineShards, localStackParity);
    }

    /** The journal file (every applied command appended); null = none. */
    public ServerConfig withJournal(Path value) {
        return new ServerConfig(host, port, accountId, region, advertisedUrl, storage, dataDir, durability, clock, queues,
                maxBodyBytes, logFormat, accessLog, cooldowns, push, maxIndexedMessages, value, metrics, indexWindow, engineShards, localStackParity);
    }

    /** Metrics on or off. */
    public ServerConfig withMetrics(boolean value) {
        return new ServerConfig(host, port, accountId, region, advertisedUrl, storage, dataDir, durability, clock, queues,
                maxBodyBytes, logFormat, accessLog, cooldowns, push, maxIndexedMessages, journal, value, indexWindow, engineShards, localStackParity);
    }

    /** The per-queue index window (visible messages indexed per queue). */
    public ServerConfig withIndexWindow(long value) {
        return new ServerConfig(host, port, accountId, region, advertisedUrl, storage, dataDir, durability, clock, queues,
                maxBodyBytes, logFormat, accessLog, cooldowns, push, maxIndexedMessages, journal, metrics, value, engineShards, localStackParity);
    }

    /** The message for an index window out of range ({@link #MIN_INDEX_WINDOW}..{@link #MAX_INDEX_WINDOW}). */
    public static String indexWindowRule(long value) {
        return "the index window must be " + MIN_INDEX_WINDOW + ".." + MAX_INDEX_WINDOW
                + " visible messages per queue, got " + value;
    }

    /** Without LocalStack parity (the form before the option existed). */
    public ServerConfig(String host, int port, String accountId, String region, String advertisedUrl,
                        StorageMode storage, Path dataDir, DurabilityMode durability, Clock clock,
                        List<QueueDefinition> queues, int maxBodyBytes, LogFormat logFormat, boolean accessLog,
                        Cooldowns cooldowns, PushConfig push, long maxIndexedMessages, Path journal, boolean metrics,
                        long indexWindow, int engineShards) {
        this(host, port, accountId, region, advertisedUrl, storage, dataDir, durability, clock, queues, maxBodyBytes,
                logFormat, accessLog, cooldowns, push, maxIndexedMessages, journal, metrics, indexWindow, engineShards, false);
    }

    /** LocalStack parity on or off ({@code --localstack-parity}). */
    public ServerConfig withLocalStackParity(boolean value) {
        return new ServerConfig(host, port, accountId, region, advertisedUrl, storage, dataDir, durability, clock, queues, maxBodyBytes, logFormat, accessLog, cooldowns, push, maxIndexedMessages, journal, metrics, indexWindow, engineShards, value);
    }

    /** With one engine shard (the form before shards existed). */
    public ServerConfig(String host, int port, String accountId, String region, String advertisedUrl,
                        StorageMode storage, Path dataDir, DurabilityMode durability, Clock clock,
                        List<QueueDefinition> queues, int maxBodyBytes, LogFormat logFormat, boolean accessLog,
                        Cooldowns cooldowns, PushConfig push, long maxIndexedMessages, Path journal, boolean metrics,
                        long indexWindow) {
        this(host, port, accountId, region, advertisedUrl, storage, dataDir, durability, clock, queues, maxBodyBytes,
                logFormat, accessLog, cooldowns, push, maxIndexedMessages, journal, metrics, indexWindow, 1);
    }

    /** With the default index window (the form before the setting existed). */
    public ServerConfig(String host, int port, String accountId, String region, String advertisedUrl,
                        StorageMode storage, Path dataDir, DurabilityMode durability, Clock clock,
                        List<QueueDefinition> queues, int maxBodyBytes, LogFormat logFormat, boolean accessLog,
                        Cooldowns cooldowns, PushConfig push, long maxIndexedMessages, Path journal, boolean metrics) {
        this(host, port, accountId, region, advertisedUrl, storage, dataDir, durability, clock, queues, maxBodyBytes,
                logFormat, accessLog, cooldowns, push, maxIndexedMessages, journal, metrics, DEFAULT_INDEX_WINDOW);
    }

    /** With metrics on (the form before the switch existed). */
    public ServerConfig(String host, int port, String accountId, String region, String advertisedUrl,
                        StorageMode storage, Path dataDir, DurabilityMode durability, Clock clock,
                        List<QueueDefinition> queues, int maxBodyBytes, LogFormat logFormat, boolean accessLog,
                        Cooldowns cooldowns, PushConfig push, long maxIndexedMessages, Path journal) {
        this(host, port, accountId, region, advertisedUrl, storage, dataDir, durability, clock, queues, maxBodyBytes,
                logFormat, accessLog, cooldowns, push, maxIndexedMessages, journal, true);
    }

    /** Without a journal (the form before it existed). */
    public ServerConfig(String host, int port, String accountId, String region, String advertisedUrl,
                        StorageMode storage, Path dataDir, DurabilityMode durability, Clock clock,
                        List<QueueDefinition> queues, int maxBodyBytes, LogFormat logFormat, boolean accessLog,
                        Cooldowns cooldowns, PushConfig push, long maxIndexedMessages) {
        this(host, port, accountId, region, advertisedUrl, storage, dataDir, durability, clock, queues, maxBodyBytes,
                logFormat, accessLog, cooldowns, push, maxIndexedMessages, null);
    }

    private static String stripTrailingSlash(String url) {
        String s = url.trim();
        while (s.endsWith("/")) {
            s = s.substring(0, s.length() - 1);
        }
        return s;
    }

    /** Engines side by side, each owning the accounts that hash to it. */
    public ServerConfig withEngineShards(int value) {
        ServerConfig c = this;
        return new ServerConfig(host, port, accountId, region, advertisedUrl, storage, dataDir, durability, clock, queues, maxBodyBytes, logFormat, accessLog, cooldowns, push, maxIndexedMessages, journal, metrics, indexWindow, value, localStackParity);
    }
}
