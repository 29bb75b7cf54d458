package io.hikyaku.server.config;

import io.hikyaku.server.Cooldowns;
import io.hikyaku.server.DurabilityMode;
import io.hikyaku.server.LogFormat;
import io.hikyaku.server.ServerConfig;
import io.hikyaku.server.StorageMode;
import java.util.Locale;

/** Parses setting values written as text (file, environment), with messages that name the setting. */
final class SettingValues {

    private SettingValues() {}

    static Integer port(String source, String text) {
        Integer value = integer(source, text);
        if (value != null && (value < 0 || value > 65535)) {
            throw new ConfigException(source + ": port must be 0..65535, got " + text);
        }
        return value;
    }

    static Integer integer(String source, String text) {
        if (text == null) {
            return null;
        }
        try {
            return Integer.valueOf(text.trim());
        } catch (NumberFormatException e) {
            throw new ConfigException(source + ": not a whole number: " + text);
        }
    }

    /** The per-queue index window, within the server's bounds, or null when not given. */
    static Long indexWindow(String source, String text) {
        Long value = positiveLong(source, text);
        if (value != null && (value < ServerConfig.MIN_INDEX_WINDOW || value > ServerConfig.MAX_INDEX_WINDOW)) {
            throw new ConfigException(source + ": " + ServerConfig.indexWindowRule(value));
        }
        return value;
    }

    /** A whole number of at least 1 that fits an int (e.g. the engine shards), or null when not given. */
    static Integer positiveInt(String source, String text) {
        Long value = positiveLong(source, text);
        if (value != null && value > Integer.MAX_VALUE) {
            throw new ConfigException(source + ": too large: " + text);
        }
        return value == null ? null : value.intValue();
    }

    /** A whole number of at least 1 (e.g. the index budget), or null when not given. */
    static Long positiveLong(String source, String text) {
        if (text == null) {
            return null;
        }
        long value;
        try {
            value = Long.parseLong(text.trim());
        } catch (NumberFormatException e) {
            throw new ConfigException(source + ": not a whole number: " + text);
        }
        if (value < 1) {
            throw new ConfigException(source + ": must be at least 1, got " + text);
        }
        return value;
    }

    static String accountId(String source, String text) {
        if (text != null && !text.trim().matches("\\d{12}")) {
            throw new ConfigException(source + ": account id must be 12 digits, got " + text);
        }
        return text == null ? null : text.trim();
    }

    static StorageMode storage(String source, String text) {
        if (text == null) {
            return null;
        }
        return switch (text.trim().toLowerCase(Locale.ROOT)) {
            case "rocksdb" -> StorageMode.ROCKSDB;
            case "memory" -> StorageMode.MEMORY;
            default -> throw new ConfigException(source + ": storage must be rocksdb or memory, got " + text);
        };
    }

    static Cooldowns cooldowns(String source, String text) {
        if (text == null) {
            return null;
        }
        return switch (text.trim().toLowerCase(Locale.ROOT)) {
            case "aws" -> Cooldowns.AWS;
            case "off" -> Cooldowns.OFF;
            default -> throw new ConfigException(source + ": cooldowns must be aws or off, got " + text);
        };
    }

    static LogFormat logFormat(String source, String text) {
        if (text == null) {
            return null;
        }
        return switch (text.trim().toLowerCase(Locale.ROOT)) {
            case "text" -> LogFormat.TEXT;
            case "json" -> LogFormat.JSON;
            default -> throw new ConfigException(source + ": log format must be text or json, got " + text);
        };
    }

    /** on / off (true / false, yes / no also accepted). */
    static Boolean onOff(String source, String text) {
        if (text == null) {
            return null;
        }
        return switch (text.trim().toLowerCase(Locale.ROOT)) {
            case "on", "true", "yes" -> Boolean.TRUE;
            case "off", "false", "no" -> Boolean.FALSE;
            default -> throw new ConfigException(source + ": must be on or off, got " + text);
        };
    }

    static DurabilityMode durability(String source, String text) {
        if (text == null) {
            return null;
        }
        return switch (text.trim().toLowerCase(Locale.ROOT)) {
            case "fsync" -> DurabilityMode.FSYNC;
            case "batch" -> DurabilityMode.BATCH;
            case "none" -> DurabilityMode.NONE;
            default -> throw new ConfigException(source + ": durability must be fsync, batch or none, got " + text);
        };
    }
}
