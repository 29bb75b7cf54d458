package io.hikyaku.server.cli;

import io.hikyaku.server.IdentityReload;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * SIGHUP reloads the identities from the config file ({@link IdentityReload}), as daemons reload
 * their configuration. Installing the handler also keeps SIGHUP from stopping the JVM (its default).
 * A process started with SIGHUP ignored (nohup) keeps ignoring it: the JVM installs no handler then, which
 * is logged as a warning.
 */
final class ReloadSignal {

    private static final Logger LOG = LoggerFactory.getLogger(ReloadSignal.class);

    private ReloadSignal() {}

    static void install(IdentityReload reload) {
        try {
            SignalHandler previous = Signal.handle(new Signal("HUP"), signal -> {
                try {
                    reload.reload();
                } catch (RuntimeException e) {
                    LOG.error("Identity reload failed, the previous identities stay in force", e);
                }
            });
            if (previous == SignalHandler.SIG_IGN) {
                // the JVM installs no handler for a signal the process was started ignoring (nohup does that)
                LOG.warn("SIGHUP is ignored by this process (started under nohup?): identities are reloaded by a restart only");
            }
        } catch (IllegalArgumentException | UnsupportedOperationException unavailable) {
            // no SIGHUP on this platform (or the JVM keeps it): identities then change with a restart
            LOG.info("SIGHUP is not available here ({}); identities are reloaded by a restart", unavailable.getMessage());
        }
    }
}
