package io.hikyaku.server.config;

import java.nio.file.Path;
import java.util.Map;

/** Settings from HIKYAKU_* environment variables; the map is passed in so tests need not touch the real one. */
public final class EnvironmentSettings {

    private EnvironmentSettings() {}

    public static Settings from(Map<String, String> env) {
        return new Settings(
                value(env, "HIKYAKU_HOST"),
                SettingValues.port("HIKYAKU_PORT", value(env, "HIKYAKU_PORT")),
                SettingValues.accountId("HIKYAKU_ACCOUNT_ID", value(env, "HIKYAKU_ACCOUNT_ID")),
                value(env, "HIKYAKU_REGION"),
                value(env, "HIKYAKU_ADVERTISED_URL"),
                SettingValues.storage("HIKYAKU_STORAGE", value(env, "HIKYAKU_STORAGE")),
                path(value(env, "HIKYAKU_DATA_DIR")),
                SettingValues.durability("HIKYAKU_DURABILITY", value(env, "HIKYAKU_DURABILITY")),
                SettingValues.integer("HIKYAKU_MAX_BODY_BYTES", value(env, "HIKYAKU_MAX_BODY_BYTES")),
                SettingValues.logFormat("HIKYAKU_LOG_FORMAT", value(env, "HIKYAKU_LOG_FORMAT")),
                SettingValues.onOff("HIKYAKU_ACCESS_LOG", value(env, "HIKYAKU_ACCESS_LOG")),
                SettingValues.cooldowns("HIKYAKU_COOLDOWNS", value(env, "HIKYAKU_COOLDOWNS")),
                SettingValues.positiveLong("HIKYAKU_MAX_INDEXED_MESSAGES", value(env, "HIKYAKU_MAX_INDEXED_MESSAGES")),
                path(value(env, "HIKYAKU_JOURNAL")),
                SettingValues.onOff("HIKYAKU_METRICS", value(env, "HIKYAKU_METRICS")),
                SettingValues.indexWindow("HIKYAKU_INDEX_WINDOW", value(env, "HIKYAKU_INDEX_WINDOW")),
                SettingValues.positiveInt("HIKYAKU_ENGINE_SHARDS", value(env, "HIKYAKU_ENGINE_SHARDS")),
                SettingValues.onOff("HIKYAKU_LOCALSTACK_PARITY", value(env, "HIKYAKU_LOCALSTACK_PARITY")));
    }

    /** Unset and empty both mean "not given". */
    private static String value(Map<String, String> env, String name) {
        String v = env.get(name);
        return v == null || v.isEmpty() ? null : v;
    }

    private static Path path(String text) {
        return text == null ? null : Path.of(text);
    }
}
