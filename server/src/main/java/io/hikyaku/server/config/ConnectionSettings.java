package io.hikyaku.server.config;

import io.hikyaku.server.http.ConnectionLimits;
import java.util.Map;

/**
 * The connection limits an operator may set, from one source (the config file's {@code server}
 * section, the environment or the flags); null: not given there. Later sources win, one setting at a
 * time, over {@link ConnectionLimits#DEFAULTS}.
 *
 * <pre>
 *   flag                            config key                 environment
 *   --max-connections N             maxConnections             HIKYAKU_MAX_CONNECTIONS
 *   --max-connections-per-address N maxConnectionsPerAddress   HIKYAKU_MAX_CONNECTIONS_PER_ADDRESS
 *   --request-head-timeout SECONDS  requestHeadTimeout         HIKYAKU_REQUEST_HEAD_TIMEOUT
 *   --request-body-timeout SECONDS  requestBodyTimeout         HIKYAKU_REQUEST_BODY_TIMEOUT
 * </pre>
 */
public record ConnectionSettings(Integer maxConnections, Integer maxConnectionsPerAddress, Integer headTimeoutSeconds,
                                 Integer bodyTimeoutSeconds) {

    public static final ConnectionSettings NONE = new ConnectionSettings(null, null, null, null);
    /** Connections at most (a file descriptor each): beyond this the limit protects nothing. */
    public static final int MAX_CONNECTIONS = 1_000_000;
    /** A day: a longer timeout is no timeout. */
    public static final int MAX_TIMEOUT_SECONDS = 86_400;

    /** The config file's keys, in the {@code server} section. */
    static final String[] FILE_KEYS = {"maxConnections", "maxConnectionsPerAddress", "requestHeadTimeout", "requestBodyTimeout"};

    /**
     * One source's settings.
     *
     * @param names  how the source names each setting, in {@link #FILE_KEYS} order (for error messages)
     * @param values the values given (null: not given), in the same order
     * @throws ConfigException naming the setting, for a value that is not a whole number in range
     */
    public static ConnectionSettings parse(String[] names, String[] values) {
        return new ConnectionSettings(
                number(names[0], values[0], MAX_CONNECTIONS, "connections"),
                number(names[1], values[1], MAX_CONNECTIONS, "connections"),
                number(names[2], values[2], MAX_TIMEOUT_SECONDS, "seconds"),
                number(names[3], values[3], MAX_TIMEOUT_SECONDS, "seconds"));
    }

    /** The environment's settings ({@code HIKYAKU_MAX_CONNECTIONS} ...). */
    public static ConnectionSettings fromEnvironment(Map<String, String> env) {
        String[] names = {"HIKYAKU_MAX_CONNECTIONS", "HIKYAKU_MAX_CONNECTIONS_PER_ADDRESS", "HIKYAKU_REQUEST_HEAD_TIMEOUT",
                "HIKYAKU_REQUEST_BODY_TIMEOUT"};
        String[] values = new String[names.length];
        for (int i = 0; i < names.length; i++) {
            String v = env.get(names[i]);
            values[i] = v == null || v.isEmpty() ? null : v;
        }
        return parse(names, values);
    }

    /** The config file's {@code server} section's settings. */
    static ConnectionSettings fromServerSection(String source, Map<String, Object> section) {
        String[] names = new String[FILE_KEYS.length];
        String[] values = new String[FILE_KEYS.length];
        for (int i = 0; i < FILE_KEYS.length; i++) {
            names[i] = source + "." + FILE_KEYS[i];
            Object v = section.get(FILE_KEYS[i]);
            values[i] = v == null ? null : v.toString();
        }
        return parse(names, values);
    }

    /** The sources in rising precedence, merged: each setting from the last source that gives it. */
    public static ConnectionSettings layered(ConnectionSettings... sources) {
        Integer total = null, perAddress = null, head = null, body = null;
        for (ConnectionSettings s : sources) {
            total = s.maxConnections != null ? s.maxConnections : total;
            perAddress = s.maxConnectionsPerAddress != null ? s.maxConnectionsPerAddress : perAddress;
            head = s.headTimeoutSeconds != null ? s.headTimeoutSeconds : head;
            body = s.bodyTimeoutSeconds != null ? s.bodyTimeoutSeconds : body;
        }
        return new ConnectionSettings(total, perAddress, head, body);
    }

    /**
     * {@code limits} with these settings in place of its own.
     *
     * @throws ConfigException when the per-address limit would exceed the total
     */
    public ConnectionLimits applyTo(ConnectionLimits limits) {
        int total = maxConnections != null ? maxConnections : limits.maxConnections();
        int perAddress = maxConnectionsPerAddress != null ? maxConnectionsPerAddress : Math.min(limits.maxConnectionsPerAddress(), total);
        if (perAddress > total) {
            throw new ConfigException("the connection limit per address (" + perAddress + ") must not exceed the total connection limit ("
                    + total + "): see --max-connections-per-address and --max-connections");
        }
        return new ConnectionLimits(total, perAddress, limits.maxPendingHeadBytes(), limits.maxPendingBodyBytes(),
                headTimeoutSeconds != null ? headTimeoutSeconds * 1000L : limits.headTimeoutMillis(),
                bodyTimeoutSeconds != null ? bodyTimeoutSeconds * 1000L : limits.bodyTimeoutMillis(),
                limits.maxUnauthenticatedBodyBytes());
    }

    private static Integer number(String name, String value, int max, String unit) {
        if (value == null) {
            return null;
        }
        String v = value.trim();
        long n;
        try {
            n = v.matches("[0-9]{1,10}") ? Long.parseLong(v) : -1;
        } catch (NumberFormatException e) {
            n = -1;
        }
        if (n < 1 || n > max) {
            throw new ConfigException("invalid value for " + name + ": '" + value + "' (expected a whole number of " + unit
                    + " from 1 to " + max + ")");
        }
        return (int) n;
    }
}
