package io.hikyaku.server.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** The version Maven wrote into version.properties at build time. */
public final class Version {

    private Version() {}

    public static String current() {
        Properties p = new Properties();
        try (InputStream in = Version.class.getResourceAsStream("/io/hikyaku/server/version.properties")) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException ignored) {
            // fall through to "unknown"
        }
        return p.getProperty("version", "unknown");
    }
}
