package io.hikyaku.identity;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Reads the config file's {@code accounts:} section (as the YAML parser returns it: maps, lists
 * and text) into {@link Identities}:
 *
 * <pre>
 * accounts:
 *   - id: "111111111111"
 *     rootKeys: [{accessKeyId: AKIA..., secretAccessKey: "..."}]
 *     users:
 *       - name: alice
 *         accessKeys: [{accessKeyId: AKIA..., secretAccessKeyEnv: ALICE_SECRET}]
 *         policies: {send-orders: {Version: "2012-10-17", Statement: [...]}}
 *     roles:
 *       - name: worker
 *         trustPolicy: {Version: "2012-10-17", Statement: [...]}
 *         policies: {...}
 *         maxSessionDurationSeconds: 3600
 * </pre>
 *
 * A secret is given exactly one way: {@code secretAccessKey} (inline), {@code secretAccessKeyEnv}
 * (an environment variable's name) or {@code secretAccessKeyFile} (a file holding it; one trailing
 * newline is ignored). Unknown keys are errors. Error messages name the place in the file and never
 * a secret's value.
 */
public final class IdentitiesConfig {

    private static final Set<String> ACCOUNT_KEYS = Set.of("id", "rootKeys", "users", "roles");
    private static final Set<String> USER_KEYS = Set.of("name", "accessKeys", "policies");
    private static final Set<String> ROLE_KEYS = Set.of("name", "trustPolicy", "policies", "maxSessionDurationSeconds");
    private static final Set<String> KEY_KEYS = Set.of("accessKeyId", "secretAccessKey", "secretAccessKeyEnv", "secretAccessKeyFile");
    private static final Pattern ACCOUNT_ID = Pattern.compile("\\d{12}");
    /** AWS: 16..128 word characters. ASIA is kept for the keys STS mints. */
    private static final Pattern KEY_ID = Pattern.compile("[A-Z0-9]{16,128}");
    /** IAM user and role names. */
    private static final Pattern NAME = Pattern.compile("[\\w+=,.@-]{1,64}");
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Function<String, String> env;

    /** @param env environment lookup for {@code secretAccessKeyEnv} (tests pass their own) */
    public IdentitiesConfig(Function<String, String> env) {
        this.env = env;
    }

    /**
     * @param accounts the value of {@code accounts:} (a list), or null
     * @param source   where it comes from, for error messages (e.g. the file name)
     * @throws IllegalArgumentException with a message naming the bad entry
     */
    public Identities parse(Object accounts, String source) {
        if (accounts == null) {
            return Identities.NONE;
        }
        List<Account> all = new ArrayList<>();
        List<Credential> keys = new ArrayList<>();
        List<?> list = list(source + ": accounts", accounts);
        for (int i = 0; i < list.size(); i++) {
            all.add(account(source + ": accounts[" + i + "]", map(source + ": accounts[" + i + "]", list.get(i), ACCOUNT_KEYS), keys));
        }
        return new Identities(all, keys);
    }

    private Account account(String where, Map<String, Object> a, List<Credential> keys) {
        String id = text(where, a, "id");
        if (id == null || !ACCOUNT_ID.matcher(id).matches()) {
            throw new IllegalArgumentException(where + ".id: an account id must be 12 digits, got " + id);
        }
        Principal root = Principal.accountRoot(id);
        List<?> rootKeys = a.get("rootKeys") == null ? List.of() : list(where + ".rootKeys", a.get("rootKeys"));
        for (int i = 0; i < rootKeys.size(); i++) {
            keys.add(key(where + ".rootKeys[" + i + "]", rootKeys.get(i), root));
        }
        List<User> users = new ArrayList<>();
        List<?> userList = a.get("users") == null ? List.of() : list(where + ".users", a.get("users"));
        for (int i = 0; i < userList.size(); i++) {
            String w = where + ".users[" + i + "]";
            Map<String, Object> u = map(w, userList.get(i), USER_KEYS);
            String name = name(w, u);
            User user = new User(id, name, UniqueIds.user(id, name), policies(w + ".policies", u.get("policies")));
            users.add(user);
            List<?> userKeys = u.get("accessKeys") == null ? List.of() : list(w + ".accessKeys", u.get("accessKeys"));
            for (int k = 0; k < userKeys.size(); k++) {
                keys.add(key(w + ".accessKeys[" + k + "]", userKeys.get(k), user.principal()));
            }
        }
        List<Role> roles = new ArrayList<>();
        List<?> roleList = a.get("roles") == null ? List.of() : list(where + ".roles", a.get("roles"));
        for (int i = 0; i < roleList.size(); i++) {
            String w = where + ".roles[" + i + "]";
            Map<String, Object> r = map(w, roleList.get(i), ROLE_KEYS);
            String name = name(w, r);
            String max = text(w, r, "maxSessionDurationSeconds");
            int maxSeconds = Role.DEFAULT_MAX_SESSION_SECONDS;
            if (max != null) {
                try {
                    maxSeconds = Integer.parseInt(max.trim());
                } catch (NumberFormatException e) {
                    maxSeconds = -1;
                }
                if (maxSeconds < 3600 || maxSeconds > 43200) {
                    throw new IllegalArgumentException(w + ".maxSessionDurationSeconds: must be 3600..43200, got " + max);
                }
            }
            Object trust = r.get("trustPolicy");
            roles.add(new Role(id, name, UniqueIds.role(id, name), trust == null ? null : json(w + ".trustPolicy", trust),
                    policies(w + ".policies", r.get("policies")), maxSeconds));
        }
        checkUnique(where + ".users", users.stream().map(User::name).toList());
        checkUnique(where + ".roles", roles.stream().map(Role::name).toList());
        return new Account(id, users, roles);
    }

    private Credential key(String where, Object value, Principal owner) {
        Map<String, Object> k = map(where, value, KEY_KEYS);
        String id = text(where, k, "accessKeyId");
        if (id == null || !KEY_ID.matcher(id).matches()) {
            throw new IllegalArgumentException(where + ".accessKeyId: must be 16..128 upper-case letters and digits, got " + id);
        }
        if (id.startsWith("ASIA")) {
            throw new IllegalArgumentException(where + ".accessKeyId: ASIA... ids are kept for temporary credentials (use AKIA...)");
        }
        String inline = text(where, k, "secretAccessKey");
        String envName = text(where, k, "secretAccessKeyEnv");
        String file = text(where, k, "secretAccessKeyFile");
        int given = (inline != null ? 1 : 0) + (envName != null ? 1 : 0) + (file != null ? 1 : 0);
        if (given != 1) {
            throw new IllegalArgumentException(where + ": give exactly one of secretAccessKey, secretAccessKeyEnv, secretAccessKeyFile");
        }
        String secret;
        if (inline != null) {
            secret = inline;
        } else if (envName != null) {
            secret = env.apply(envName);
            if (secret == null || secret.isEmpty()) {
                throw new IllegalArgumentException(where + ".secretAccessKeyEnv: environment variable " + envName + " is not set");
            }
        } else {
            try {
                secret = Files.readString(Path.of(file), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new IllegalArgumentException(where + ".secretAccessKeyFile: cannot read " + file + " (" + e.getClass().getSimpleName() + ")");
            }
            secret = secret.endsWith("\r\n") ? secret.substring(0, secret.length() - 2)
                    : secret.endsWith("\n") ? secret.substring(0, secret.length() - 1) : secret;
        }
        if (secret.isEmpty()) {
            throw new IllegalArgumentException(where + ": the secret access key is empty");
        }
        return Credential.longTerm(id, new Secret(secret), owner);
    }

    private static String name(String where, Map<String, Object> m) {
        String name = text(where, m, "name");
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException(where + ".name: must be 1..64 of letters, digits and +=,.@_-, got " + name);
        }
        return name;
    }

    private static Map<String, String> policies(String where, Object value) {
        Map<String, String> out = new LinkedHashMap<>();
        if (value == null) {
            return out;
        }
        if (!(value instanceof Map<?, ?> m)) {
            throw new IllegalArgumentException(where + ": must map policy names to policy documents");
        }
        for (Map.Entry<?, ?> e : m.entrySet()) {
            out.put(String.valueOf(e.getKey()), json(where + "." + e.getKey(), e.getValue()));
        }
        return out;
    }

    /** A policy written as YAML (a map) or as JSON text, kept as JSON text. */
    private static String json(String where, Object value) {
        if (value instanceof String s) {
            try {
                JSON.readTree(s);
                return s;
            } catch (JsonProcessingException e) {
                throw new IllegalArgumentException(where + ": not a JSON policy document");
            }
        }
        if (!(value instanceof Map<?, ?>)) {
            throw new IllegalArgumentException(where + ": must be a policy document (a mapping)");
        }
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(where + ": cannot be written as JSON");
        }
    }

    private static void checkUnique(String where, List<String> names) {
        Set<String> seen = new TreeSet<>();
        for (String n : names) {
            if (!seen.add(n)) {
                throw new IllegalArgumentException(where + ": '" + n + "' appears twice");
            }
        }
    }

    private static List<?> list(String where, Object value) {
        if (!(value instanceof List<?> l)) {
            throw new IllegalArgumentException(where + ": must be a list");
        }
        return l;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(String where, Object value, Set<String> allowed) {
        if (!(value instanceof Map<?, ?> m)) {
            throw new IllegalArgumentException(where + ": must be a mapping of keys to values");
        }
        for (Object key : m.keySet()) {
            if (!allowed.contains(String.valueOf(key))) {
                throw new IllegalArgumentException(where + ": unknown key '" + key + "' (expected one of " + new TreeSet<>(allowed) + ")");
            }
        }
        return (Map<String, Object>) m;
    }

    private static String text(String where, Map<String, Object> m, String key) {
        Object v = m.get(key);
        if (v == null) {
            return null;
        }
        if (v instanceof Map<?, ?> || v instanceof List<?>) {
            throw new IllegalArgumentException(where + "." + key + ": must be a single value");
        }
        return v.toString();
    }
}
