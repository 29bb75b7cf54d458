package io.hikyaku.server;

import io.hikyaku.identity.Identities;
import io.hikyaku.identity.IdentitiesConfig;
import io.hikyaku.identity.IdentityPolicies;
import io.hikyaku.server.config.ConfigException;
import io.hikyaku.server.config.ConfigFile;
import java.nio.file.Path;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Re-reads the identities (accounts, keys, users, roles, policies) of a running server from its
 * config file (on SIGHUP) and swaps them in at once. The file is validated in full first, as at
 * start; a file that does not validate is refused with an error naming the problem, and the
 * identities in force stay. Queues, functions and every other setting of the file are not
 * reapplied (they need a restart). Secrets are never logged.
 */
public final class IdentityReload {

    private static final Logger LOG = LoggerFactory.getLogger(IdentityReload.class);

    private final Path configFile;
    private final Function<String, String> env;
    private final HikyakuServer server;

    /**
     * @param configFile the file the server was started with, or null (then there is nothing to reload)
     * @param env        environment lookup for {@code secretAccessKeyEnv}
     */
    public IdentityReload(Path configFile, Function<String, String> env, HikyakuServer server) {
        this.configFile = configFile;
        this.env = env;
        this.server = server;
    }

    /**
     * The identities of {@code configFile} (none without a file), validated in full: the file's
     * YAML and settings, every account, key and name, every policy's grammar.
     *
     * @throws ConfigException naming the problem
     */
    public static Identities load(Path configFile, Function<String, String> env) {
        if (configFile == null) {
            return Identities.NONE;
        }
        ConfigFile file = ConfigFile.load(configFile);
        try {
            Identities identities = new IdentitiesConfig(env).parse(file.accounts(), configFile.toString());
            IdentityPolicies.check(identities, configFile.toString());
            return identities;
        } catch (IllegalArgumentException e) {
            throw new ConfigException(e.getMessage(), e);
        }
    }

    /** @return true when the file's identities are now in force, false when it was refused (and logged) */
    public synchronized boolean reload() {
        if (configFile == null) {
            LOG.warn("Identity reload asked, but the server was started without a config file: nothing to reload");
            return false;
        }
        Identities next;
        try {
            next = load(configFile, env);
        } catch (ConfigException e) {
            String problem = withoutSnippets(e.getMessage());
            LOG.error("Identity reload refused, the previous identities stay in force: {}",
                    problem.startsWith(configFile.toString()) ? problem : configFile + ": " + problem);
            return false;
        }
        server.replaceIdentities(next);
        LOG.info("Identities reloaded from {}: {} account(s), {} key(s) (queues and other settings are not reapplied)",
                configFile, next.accounts().size(), next.keyCount());
        return true;
    }

    /**
     * The message without the lines of the file a YAML error quotes (indented excerpts and their
     * caret lines): such an excerpt could be a secret.
     */
    static String withoutSnippets(String message) {
        if (message == null) {
            return "";
        }
        return message.lines().filter(l -> !l.startsWith("    ")).map(String::strip).filter(l -> !l.isEmpty())
                .collect(Collectors.joining(" "));
    }
}
