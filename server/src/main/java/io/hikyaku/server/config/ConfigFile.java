package io.hikyaku.server.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hikyaku.push.PushConfig;
import io.hikyaku.server.QueueDefinition;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.representer.Representer;

/**
 * The YAML config file: a {@code server} section with the same settings as the flags, and the
 * {@code queues} to create at start. Unknown keys are errors, so a typo does not go unnoticed.
 *
 * @param settings the server section
 * @param queues   queues to create, in file order
 * @param security the server section's security settings (auth, TLS)
 * @param accounts the {@code accounts:} section as parsed YAML (read by the identity module), or null
 * @param push     the {@code functions} and {@code eventSourceMappings} sections (push delivery)
 * @param sam      the {@code samTemplates} to read at start (relative paths are from the file's directory)
 * @param connections the server section's connection limits
 */
public record ConfigFile(Settings settings, List<QueueDefinition> queues, SecuritySettings security, Object accounts,
                         PushConfig push, SamTemplates sam, ConnectionSettings connections,
                         io.hikyaku.server.cluster.ClusterSettings cluster) {

    public static final ConfigFile EMPTY = new ConfigFile(Settings.NONE, List.of());

    private static final Set<String> TOP_KEYS = Set.of("server", "queues", "accounts", "functions", "eventSourceMappings",
            "samTemplates", "cluster");
    private static final Set<String> SERVER_KEYS = Set.of("host", "port", "accountId", "region", "advertisedUrl",
            "storage", "dataDir", "durability", "maxBodyBytes", "logFormat", "accessLog", "cooldowns",
            "maxIndexedMessages", "indexWindow", "auth", "allowUnauthenticated", "tlsCert", "tlsKey", "tlsPort", "journal", "metrics", "engineShards", "allowedHosts", "metricsTokenFile", "outboundAllow", "outboundCa",
            "maxConnections", "maxConnectionsPerAddress", "requestHeadTimeout", "requestBodyTimeout", "localstackParity");
    private static final Set<String> QUEUE_KEYS = Set.of("name", "attributes", "tags", "deadLetterQueue", "maxReceiveCount", "account");

    /** Without a cluster section. */
    public ConfigFile(Settings settings, List<QueueDefinition> queues, SecuritySettings security, Object accounts,
                      PushConfig push, SamTemplates sam, ConnectionSettings connections) {
        this(settings, queues, security, accounts, push, sam, connections, io.hikyaku.server.cluster.ClusterSettings.NONE);
    }

    public ConfigFile(Settings settings, List<QueueDefinition> queues, SecuritySettings security, Object accounts,
                      PushConfig push, SamTemplates sam) {
        this(settings, queues, security, accounts, push, sam, ConnectionSettings.NONE);
    }

    /** A file with no security settings and no accounts. */
    public ConfigFile(Settings settings, List<QueueDefinition> queues) {
        this(settings, queues, SecuritySettings.NONE, null, PushConfig.NONE, SamTemplates.NONE);
    }
    private static final ObjectMapper JSON = new ObjectMapper();

    public static ConfigFile load(Path file) {
        if (Files.isDirectory(file)) {
            throw new ConfigException("cannot read config file " + file + ": is a directory");
        }
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            return parse(reader, file.toString(), file.toAbsolutePath().getParent());
        } catch (IOException e) {
            throw new ConfigException("cannot read config file " + file + ": " + ReadFailures.why(e), e);
        }
    }

    public static ConfigFile parse(String yaml) {
        return parse(new StringReader(yaml), "config", null);
    }

    private static ConfigFile parse(Reader reader, String source, Path directory) {
        LoaderOptions options = new LoaderOptions();
        options.setAllowDuplicateKeys(false);
        DumperOptions dumper = new DumperOptions();
        Yaml yaml = new Yaml(new SafeConstructor(options), new Representer(dumper), dumper, options, new StringScalarResolver());
        Object root;
        try {
            root = yaml.load(reader);
        } catch (YAMLException e) {
            throw new ConfigException(source + ": not valid YAML: " + e.getMessage(), e);
        }
        if (root == null) {
            return EMPTY;
        }
        Map<String, Object> top = map(source, root);
        checkKeys(source, top, TOP_KEYS);
        Settings settings = top.get("server") == null ? Settings.NONE : serverSection(source + ": server", map(source + ": server", top.get("server")));
        List<QueueDefinition> queues = new ArrayList<>();
        Object queueList = top.get("queues");
        if (queueList != null) {
            if (!(queueList instanceof List<?> list)) {
                throw new ConfigException(source + ": queues must be a list");
            }
            for (int i = 0; i < list.size(); i++) {
                queues.add(queue(source + ": queues[" + i + "]", map(source + ": queues[" + i + "]", list.get(i))));
            }
        }
        SecuritySettings security = top.get("server") == null ? SecuritySettings.NONE
                : securitySection(source + ": server", map(source + ": server", top.get("server")));
        PushConfig push = PushSection.parse(source, top.get("functions"), top.get("eventSourceMappings"));
        return new ConfigFile(settings, queues, security, top.get("accounts"), push,
                samTemplates(source, top.get("samTemplates"), top.get("functions"), directory),
                top.get("server") == null ? ConnectionSettings.NONE
                        : ConnectionSettings.fromServerSection(source + ": server", map(source + ": server", top.get("server"))),
                io.hikyaku.server.cluster.ClusterSettings.fromFile(source + ": cluster", top.get("cluster")));
    }

    /** The template paths, and which functions have no timeoutSeconds (a template's Timeout may fill it in). */
    private static SamTemplates samTemplates(String source, Object templates, Object functions, Path directory) {
        if (templates == null) {
            return SamTemplates.NONE;
        }
        if (!(templates instanceof List<?> list)) {
            throw new ConfigException(source + ": samTemplates must be a list of template files");
        }
        List<Path> paths = new ArrayList<>();
        for (Object t : list) {
            if (t == null || t instanceof Map<?, ?> || t instanceof List<?>) {
                throw new ConfigException(source + ": samTemplates: each entry must be a file path");
            }
            Path p = Path.of(t.toString());
            paths.add(directory == null || p.isAbsolute() ? p : directory.resolve(p));
        }
        Set<String> untimed = new java.util.HashSet<>();
        if (functions instanceof List<?> fs) {
            for (Object f : fs) {
                if (f instanceof Map<?, ?> m && m.get("timeoutSeconds") == null && m.get("name") != null) {
                    untimed.add(m.get("name").toString());
                }
            }
        }
        return new SamTemplates(paths, untimed);
    }

    private static SecuritySettings securitySection(String source, Map<String, Object> s) {
        String cert = text(source, s, "tlsCert");
        String key = text(source, s, "tlsKey");
        return new SecuritySettings(SecuritySettings.auth(source + ".auth", text(source, s, "auth")),
                SecuritySettings.bool(source + ".allowUnauthenticated", text(source, s, "allowUnauthenticated")),
                cert == null ? null : Path.of(cert), key == null ? null : Path.of(key),
                SettingValues.port(source + ".tlsPort", text(source, s, "tlsPort")), hosts(source + ".allowedHosts", s.get("allowedHosts")),
                text(source, s, "metricsTokenFile") == null ? null : Path.of(text(source, s, "metricsTokenFile")),
                outboundAllow(source + ".outboundAllow", s.get("outboundAllow")),
                text(source, s, "outboundCa") == null ? null : Path.of(text(source, s, "outboundCa")));
    }

    /** A list of entries, or one comma-separated string of them, as one comma-separated string. */
    private static String outboundAllow(String source, Object value) {
        List<String> entries = hosts(source, value);
        return entries == null ? null : String.join(",", entries);
    }

    /** A list of host names, or one comma-separated string of them. */
    private static List<String> hosts(String source, Object value) {
        if (value == null) {
            return null;
        }
        if (value instanceof List<?> list) {
            List<String> out = new java.util.ArrayList<>();
            for (Object o : list) {
                if (o == null || o instanceof Map<?, ?> || o instanceof List<?>) {
                    throw new ConfigException(source + ": must be a list of host names");
                }
                out.add(o.toString().trim());
            }
            return out;
        }
        if (value instanceof Map<?, ?>) {
            throw new ConfigException(source + ": must be a list of host names");
        }
        return SecuritySettings.hostList(value.toString());
    }

    private static Settings serverSection(String source, Map<String, Object> s) {
        checkKeys(source, s, SERVER_KEYS);
        String dataDir = text(source, s, "dataDir");
        String journal = text(source, s, "journal");
        return new Settings(
                text(source, s, "host"),
                SettingValues.port(source + ".port", text(source, s, "port")),
                SettingValues.accountId(source + ".accountId", text(source, s, "accountId")),
                text(source, s, "region"),
                text(source, s, "advertisedUrl"),
                SettingValues.storage(source + ".storage", text(source, s, "storage")),
                dataDir == null ? null : Path.of(dataDir),
                SettingValues.durability(source + ".durability", text(source, s, "durability")),
                SettingValues.integer(source + ".maxBodyBytes", text(source, s, "maxBodyBytes")),
                SettingValues.logFormat(source + ".logFormat", text(source, s, "logFormat")),
                SettingValues.onOff(source + ".accessLog", text(source, s, "accessLog")),
                SettingValues.cooldowns(source + ".cooldowns", text(source, s, "cooldowns")),
                SettingValues.positiveLong(source + ".maxIndexedMessages", text(source, s, "maxIndexedMessages")),
                journal == null ? null : Path.of(journal),
                SettingValues.onOff(source + ".metrics", text(source, s, "metrics")),
                SettingValues.indexWindow(source + ".indexWindow", text(source, s, "indexWindow")),
                SettingValues.positiveInt(source + ".engineShards", text(source, s, "engineShards")),
                SettingValues.onOff(source + ".localstackParity", text(source, s, "localstackParity")));
    }

    private static QueueDefinition queue(String source, Map<String, Object> q) {
        checkKeys(source, q, QUEUE_KEYS);
        String name = text(source, q, "name");
        if (name == null || name.isBlank()) {
            throw new ConfigException(source + ": a queue needs a name");
        }
        try {
            return new QueueDefinition(name, attributes(source + ".attributes", q.get("attributes")),
                    stringMap(source + ".tags", q.get("tags")), text(source, q, "deadLetterQueue"),
                    SettingValues.integer(source + ".maxReceiveCount", text(source, q, "maxReceiveCount")),
                    SettingValues.accountId(source + ".account", text(source, q, "account")));
        } catch (IllegalArgumentException e) {
            throw new ConfigException(source + ": " + e.getMessage(), e);
        }
    }

    /** Attribute values are text; a nested map or list (e.g. a Policy) is written as JSON text. */
    private static Map<String, String> attributes(String source, Object value) {
        Map<String, String> out = new LinkedHashMap<>();
        if (value == null) {
            return out;
        }
        for (Map.Entry<String, Object> e : map(source, value).entrySet()) {
            Object v = e.getValue();
            if (v instanceof Map<?, ?> || v instanceof List<?>) {
                try {
                    out.put(e.getKey(), JSON.writeValueAsString(v));
                } catch (JsonProcessingException ex) {
                    throw new ConfigException(source + "." + e.getKey() + ": cannot write as JSON", ex);
                }
            } else {
                out.put(e.getKey(), v == null ? "" : v.toString());
            }
        }
        return out;
    }

    private static Map<String, String> stringMap(String source, Object value) {
        Map<String, String> out = new LinkedHashMap<>();
        if (value == null) {
            return out;
        }
        for (Map.Entry<String, Object> e : map(source, value).entrySet()) {
            if (e.getValue() instanceof Map<?, ?> || e.getValue() instanceof List<?>) {
                throw new ConfigException(source + "." + e.getKey() + ": must be text");
            }
            out.put(e.getKey(), e.getValue() == null ? "" : e.getValue().toString());
        }
        return out;
    }

    private static String text(String source, Map<String, Object> m, String key) {
        Object v = m.get(key);
        if (v == null) {
            return null;
        }
        if (v instanceof Map<?, ?> || v instanceof List<?>) {
            throw new ConfigException(source + "." + key + ": must be a single value");
        }
        return v.toString();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(String source, Object value) {
        if (!(value instanceof Map<?, ?> m)) {
            throw new ConfigException(source + ": must be a mapping of keys to values");
        }
        for (Object k : m.keySet()) {
            if (!(k instanceof String)) {
                throw new ConfigException(source + ": keys must be text, got " + k);
            }
        }
        return (Map<String, Object>) m;
    }

    private static void checkKeys(String source, Map<String, Object> m, Set<String> allowed) {
        for (String key : m.keySet()) {
            if (!allowed.contains(key)) {
                throw new ConfigException(source + ": unknown key '" + key + "' (expected one of " + new java.util.TreeSet<>(allowed) + ")");
            }
        }
    }
}
