package io.hikyaku.server.cli;

import io.hikyaku.server.config.ConfigException;
import java.io.PrintWriter;
import picocli.CommandLine;

/** Entry point of {@code hikyaku.jar}. */
public final class Main {

    private Main() {}

    public static void main(String[] args) {
        quietLogging();
        PrintWriter out = new PrintWriter(System.out, true);
        PrintWriter err = new PrintWriter(System.err, true);
        CommandLine cl = HikyakuCommand.commandLine(System.getenv(), out, err);
        cl.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            commandLine.getErr().println("hikyaku: " + e.getMessage());
            return e instanceof ConfigException ? 2 : 1;
        });
        int code = cl.execute(args);
        if (code != 0 || !isServe(args)) {
            System.exit(code);
        }
    }

    /** slf4j-simple logs warnings and errors only unless -Dorg.slf4j.simpleLogger.defaultLogLevel says otherwise. */
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
