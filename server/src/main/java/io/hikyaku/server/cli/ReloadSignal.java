package io.hikyaku.server.cli;

import io.hikyaku.server.IdentityReload;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sun.misc.Signal;

/**
 * SIGHUP reloads the identities from the config file ({@link IdentityReload}), as daemons reload
 * their configuration. Installing the handler also keeps SIGHUP from stopping the JVM (its default).
 */
final class ReloadSignal {

    private static final Logger LOG = LoggerFactory.getLogger(ReloadSignal.class);

    private ReloadSignal() {}

    static void install(IdentityReload reload) {
        try {
            Signal.handle(new Signal("HUP"), signal -> {
                try {
                    reload.reload();
                } catch (RuntimeException e) {
                    LOG.error("Identity reload failed, the previous identities stay in force", e);
                }
            });
        } catch (IllegalArgumentException | UnsupportedOperationException unavailable) {
            // no SIGHUP on this platform (or the JVM keeps it): identities then change with a restart
            LOG.info("SIGHUP is not available here ({}); identities are reloaded by a restart", unavailable.getMessage());
        }
    }
}
