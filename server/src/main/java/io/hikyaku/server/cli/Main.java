package io.hikyaku.server.cli;

import java.io.PrintWriter;

/** Entry point of {@code hikyaku.jar}. */
public final class Main {

    private Main() {}

    public static void main(String[] args) {
        quietLogging();
        // Netty 4.2 registers JFR events for its buffer allocator; that loads ~100 JFR classes and
        // generates event handlers at start-up (~0.15 s of a 0.8 s start). -Dio.netty.jfr.enabled=true
        // turns them back on.
        setIfAbsent("io.netty.jfr.enabled", "false");
        // Netty's leak detector samples 1 in 128 buffers and records a stack trace for each: 0.6% of a
        // durable `send` window's CPU (async-profiler). It is a debugging aid; tests, which start servers
        // without this entry point, keep it on, and -Dio.netty.leakDetection.level=simple turns it back on.
        setIfAbsent("io.netty.leakDetection.level", "disabled");
        PrintWriter out = new PrintWriter(System.out, true);
        PrintWriter err = new PrintWriter(System.err, true);
        int code = HikyakuCommand.commandLine(System.getenv(), out, err).execute(args);
        if (code != 0 || !isServe(args)) {
            System.exit(code);
        }
    }

    /**
     * Settings for slf4j-simple, should it be the binding. It is not in the server's jar, which logs
     * through Logback as {@link io.hikyaku.server.logging.LogSetup} configures it, so these have no effect there.
     */
    private static void quietLogging() {
        setIfAbsent("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        setIfAbsent("org.slf4j.simpleLogger.showDateTime", "true");
        setIfAbsent("org.slf4j.simpleLogger.dateTimeFormat", "yyyy-MM-dd'T'HH:mm:ss.SSSX");
        setIfAbsent("org.slf4j.simpleLogger.logFile", "System.err");
    }

    private static void setIfAbsent(String key, String value) {
        if (System.getProperty(key) == null) {
            System.setProperty(key, value);
        }
    }

    private static boolean isServe(String[] args) {
        for (String a : args) {
            if (a.equals("serve")) {
                return true;
            }
        }
        return false;
    }
}
