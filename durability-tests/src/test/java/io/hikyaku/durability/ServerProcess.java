package io.hikyaku.durability;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The real Hikyaku server (shaded jar) as a child process on a free loopback port. */
final class ServerProcess implements AutoCloseable {

    private final Process process;
    private final int port;
    private final Path log;

    private ServerProcess(Process process, int port, Path log) {
        this.process = process;
        this.port = port;
        this.log = log;
    }

    /** The shaded server jar ({@code -Dhikyaku.server.jar}); the test is skipped when it is not built. */
    static Path builtJar() {
        Path jar = Path.of(System.getProperty("hikyaku.server.jar", "../server/target/hikyaku.jar"));
        assumeTrue(Files.isRegularFile(jar), "server jar " + jar.toAbsolutePath() + " is not built (mvn package -pl server -am)");
        return jar;
    }

    /** Starts the server on {@code dataDir} and waits until /health answers; fails if it exits first. */
    static ServerProcess start(Path jar, Path dataDir, Path log, int startTimeoutSeconds) throws Exception {
        return start(jar, List.of("-Xmx128m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"),
                List.of("--storage", "rocksdb", "--durability", System.getProperty("hikyaku.durability.mode", "fsync"),
                        "--data-dir", dataDir.toString()), log, startTimeoutSeconds);
    }

    /** Starts the server with these JVM flags and serve flags (host and port are added). */
    static ServerProcess start(Path jar, List<String> jvm, List<String> serve, Path log, int startTimeoutSeconds)
            throws Exception {
        int port = freePort();
        Files.createDirectories(log.getParent());
        List<String> command = new java.util.ArrayList<>();
        command.add(javaBin());
        command.addAll(jvm);
        command.addAll(List.of("-jar", jar.toString(), "serve", "--host", "127.0.0.1", "--port", Integer.toString(port)));
        command.addAll(serve);
        Process p = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        ServerProcess server = new ServerProcess(p, port, log);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(startTimeoutSeconds);
        while (!server.healthy()) {
            if (!p.isAlive()) {
                throw new AssertionError("server exited with " + p.exitValue() + " before it was healthy (the store "
                        + "must open after every crash); log " + log + ":\n" + server.logTail());
            }
            if (System.nanoTime() > deadline) {
                server.kill();
                throw new AssertionError("server not healthy within " + startTimeoutSeconds + " s; log " + log
                        + ":\n" + server.logTail());
            }
            Thread.sleep(50);
        }
        return server;
    }

    URI endpoint() {
        return URI.create("http://127.0.0.1:" + port);
    }

    boolean healthy() {
        try {
            HttpURLConnection c = (HttpURLConnection) endpoint().resolve("/health").toURL().openConnection();
            c.setConnectTimeout(500);
            c.setReadTimeout(1000);
            try {
                return c.getResponseCode() == 200;
            } finally {
                c.disconnect();
            }
        } catch (IOException e) {
            return false;
        }
    }

    /** The body of GET /health ("" if it does not answer). */
    String health() {
        try {
            HttpURLConnection c = (HttpURLConnection) endpoint().resolve("/health").toURL().openConnection();
            c.setConnectTimeout(500);
            c.setReadTimeout(1000);
            try (var in = c.getResponseCode() < 400 ? c.getInputStream() : c.getErrorStream()) {
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } finally {
                c.disconnect();
            }
        } catch (IOException e) {
            return "";
        }
    }

    /** SIGKILL on Linux: no shutdown hooks, no flush, no close. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
            throw new AssertionError("server did not die after SIGKILL");
        }
    }

    boolean alive() {
        return process.isAlive();
    }

    /** The whole log so far. */
    String logText() throws IOException {
        return Files.readString(log, StandardCharsets.UTF_8);
    }

    /** The last {@code max} log lines matching {@code regex} (a failure's story without the 503 lines around it). */
    String logLines(String regex, int max) {
        try {
            java.util.regex.Pattern p = java.util.regex.Pattern.compile(regex);
            java.util.List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8).stream()
                    .filter(l -> p.matcher(l).find()).toList();
            return String.join("\n", lines.subList(Math.max(0, lines.size() - max), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    String logTail() {
        try {
            String text = Files.readString(log, StandardCharsets.UTF_8);
            return text.length() <= 4000 ? text : text.substring(text.length() - 4000);
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            kill();
        }
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static String javaBin() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
