package io.hikyaku.server.config;

import io.hikyaku.server.ServerConfig;
import java.nio.file.Path;
import java.util.List;

/** Layers the sources: defaults &lt; config file &lt; environment &lt; command-line flags. */
public final class ConfigResolver {

    private ConfigResolver() {}

    public static ServerConfig resolve(ServerConfig defaults, ConfigFile file, Settings environment, Settings flags) {
        return resolve(defaults, file, environment, flags, null);
    }

    /**
     * As above; {@code samTemplates}, when not null, replaces the file's {@code samTemplates:} (from the
     * environment or a flag). Templates are read last, with the resolved account and region.
     */
    public static ServerConfig resolve(ServerConfig defaults, ConfigFile file, Settings environment, Settings flags,
                                       List<Path> samTemplates) {
        try {
            ServerConfig c = file.settings().applyTo(defaults).withQueues(file.queues()).withPush(file.push());
            c = environment.applyTo(c);
            c = flags.applyTo(c);
            if (c.localStackParity() && file.settings().port() == null && environment.port() == null && flags.port() == null) {
                c = c.withPort(ServerConfig.LOCALSTACK_PORT); // LocalStack's edge port, unless a port is given
            }
            SamTemplates sam = samTemplates == null ? file.sam() : file.sam().withPaths(samTemplates);
            return sam.applyTo(c);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(e.getMessage(), e);
        }
    }
}
