package io.hikyaku.server.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** The version and the git commit Maven wrote into version.properties at build time. */
public final class Version {

    private static final Properties BUILD = load();

    private Version() {}

    /** The project version, e.g. {@code 0.1.0-SNAPSHOT}. */
    public static String current() {
        return value("version");
    }

    /**
     * The commit the jar was built from ({@code git describe --always}: an abbreviated hash, or a tag),
     * with {@code +changes} when the checkout had uncommitted changes; {@code unknown} when built
     * outside a git checkout.
     */
    public static String commit() {
        return value("commit");
    }

    private static String value(String key) {
        String v = BUILD.getProperty(key, "").trim();
        return v.isEmpty() || v.startsWith("${") ? "unknown" : v;
    }

    private static Properties load() {
        Properties p = new Properties();
        try (InputStream in = Version.class.getResourceAsStream("/io/hikyaku/server/version.properties")) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException ignored) {
            // every value reads "unknown"
        }
        return p;
    }
}
