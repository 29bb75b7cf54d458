package io.hikyaku.server.config;

import io.hikyaku.server.Cooldowns;
import io.hikyaku.server.DurabilityMode;
import io.hikyaku.server.LogFormat;
import io.hikyaku.server.ServerConfig;
import io.hikyaku.server.StorageMode;
import java.nio.file.Path;

/**
 * Server settings from one source (config file, environment or flags); null = not given there.
 * Sources are layered with {@link #applyTo}: defaults &lt; file &lt; environment &lt; flags.
 */
public record Settings(String host, Integer port, String accountId, String region, String advertisedUrl,
                       StorageMode storage, Path dataDir, DurabilityMode durability, Integer maxBodyBytes,
                       LogFormat logFormat, Boolean accessLog, Cooldowns cooldowns, Long maxIndexedMessages,
                       Path journal, Boolean metrics, Long indexWindow, Integer engineShards, Boolean localStackParity) {

    public static final Settings NONE = new Settings(null, null, null, null, null, null, null, null, null, null, null, null, null,
            null, null, null, null, null);

    /** Without a LocalStack parity setting. */
    public Settings(String host, Integer port, String accountId, String region, String advertisedUrl,
                    StorageMode storage, Path dataDir, DurabilityMode durability, Integer maxBodyBytes,
                    LogFormat logFormat, Boolean accessLog, Cooldowns cooldowns, Long maxIndexedMessages,
                    Path journal, Boolean metrics, Long indexWindow, Integer engineShards) {
        this(host, port, accountId, region, advertisedUrl, storage, dataDir, durability, maxBodyBytes, logFormat, accessLog,
                cooldowns, maxIndexedMessages, journal, metrics, indexWindow, engineShards, null);
    }

    /** Without an engine shards setting. */
    public Settings(String host, Integer port, String accountId, String region, String advertisedUrl,
                       StorageMode storage, Path dataDir, DurabilityMode durability, Integer maxBodyBytes,
                       LogFormat logFormat, Boolean accessLog, Cooldowns cooldowns, Long maxIndexedMessages,
                       Path journal, Boolean metrics, Long indexWindow) {
        this(host, port, accountId, region, advertisedUrl, storage, dataDir, durability, maxBodyBytes, logFormat, accessLog, cooldowns, maxIndexedMessages, journal, metrics, indexWindow, (Integer) null);
    }


    /** Without an index window setting. */
    public Settings(String host, Integer port, String accountId, String region, String advertisedUrl,
                    StorageMode storage, Path dataDir, DurabilityMode durability, Integer maxBodyBytes,
                    LogFormat logFormat, Boolean accessLog, Cooldowns cooldowns, Long maxIndexedMessages,
                    Path journal, Boolean metrics) {
        this(host, port, accountId, region, advertisedUrl, storage, dataDir, durability, maxBodyBytes, logFormat, accessLog,
                cooldowns, maxIndexedMessages, journal, metrics, null);
    }

    /** Without a metrics setting. */
    public Settings(String host, Integer port, String accountId, String region, String advertisedUrl,
                    StorageMode storage, Path dataDir, DurabilityMode durability, Integer maxBodyBytes,
                    LogFormat logFormat, Boolean accessLog, Cooldowns cooldowns, Long maxIndexedMessages, Path journal) {
        this(host, port, accountId, region, advertisedUrl, storage, dataDir, durability, maxBodyBytes, logFormat, accessLog,
                cooldowns, maxIndexedMessages, journal, null);
    }

    /** Without a journal setting. */
    public Settings(String host, Integer port, String accountId, String region, String advertisedUrl,
                    StorageMode storage, Path dataDir, DurabilityMode durability, Integer maxBodyBytes,
                    LogFormat logFormat, Boolean accessLog, Cooldowns cooldowns, Long maxIndexedMessages) {
        this(host, port, accountId, region, advertisedUrl, storage, dataDir, durability, maxBodyBytes, logFormat, accessLog,
                cooldowns, maxIndexedMessages, null);
    }

    /** Without an index budget setting. */
    public Settings(String host, Integer port, String accountId, String region, String advertisedUrl,
                    StorageMode storage, Path dataDir, DurabilityMode durability, Integer maxBodyBytes,
                    LogFormat logFormat, Boolean accessLog, Cooldowns cooldowns) {
        this(host, port, accountId, region, advertisedUrl, storage, dataDir, durability, maxBodyBytes, logFormat, accessLog,
                cooldowns, null);
    }

    /** Without a cooldowns setting. */
    public Settings(String host, Integer port, String accountId, String region, String advertisedUrl,
                    StorageMode storage, Path dataDir, DurabilityMode durability, Integer maxBodyBytes,
                    LogFormat logFormat, Boolean accessLog) {
        this(host, port, accountId, region, advertisedUrl, storage, dataDir, durability, maxBodyBytes, logFormat, accessLog, null, null);
    }

    /** {@code base} with every setting given here replacing base's. */
    public ServerConfig applyTo(ServerConfig base) {
        ServerConfig c = base;
        if (host != null) c = c.withHost(host);
        if (port != null) c = c.withPort(port);
        if (accountId != null) c = c.withAccountId(accountId);
        if (region != null) c = c.withRegion(region);
        if (advertisedUrl != null) c = c.withAdvertisedUrl(advertisedUrl.isBlank() ? null : advertisedUrl);
        if (storage != null) c = c.withStorage(storage);
        if (dataDir != null) c = c.withDataDir(dataDir);
        if (durability != null) c = c.withDurability(durability);
        if (maxBodyBytes != null) c = c.withMaxBodyBytes(maxBodyBytes);
        if (logFormat != null) c = c.withLogFormat(logFormat);
        if (accessLog != null) c = c.withAccessLog(accessLog);
        if (cooldowns != null) c = c.withCooldowns(cooldowns);
        if (maxIndexedMessages != null) c = c.withMaxIndexedMessages(maxIndexedMessages);
        if (journal != null) c = c.withJournal(journal);
        if (metrics != null) c = c.withMetrics(metrics);
        if (indexWindow != null) c = c.withIndexWindow(indexWindow);
        if (engineShards != null) c = c.withEngineShards(engineShards);
        if (localStackParity != null) c = c.withLocalStackParity(localStackParity);
        return c;
    }
}
