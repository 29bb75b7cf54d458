package io.hikyaku.server.config;

import io.hikyaku.server.ServerConfig;

/** Layers the sources: defaults &lt; config file &lt; environment &lt; command-line flags. */
public final class ConfigResolver {

    private ConfigResolver() {}

    public static ServerConfig resolve(ServerConfig defaults, ConfigFile file, Settings environment, Settings flags) {
        try {
            ServerConfig c = file.settings().applyTo(defaults).withQueues(file.queues()).withPush(file.push());
            c = environment.applyTo(c);
            return flags.applyTo(c);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(e.getMessage(), e);
        }
    }
}
