package io.hikyaku.clustertests;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One cluster node: the real server (shaded jar) as a child process on loopback, with its own HTTP
 * port, Raft port and data directory. Can be SIGKILLed, paused (SIGSTOP) and resumed (SIGCONT) by PID,
 * and started again on the same directory and ports.
 */
final class NodeProcess implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    final String id;
    final int httpPort;
    final int raftPort;
    private final Path dataDir;
    private final Path log;
    private String peers;
    private Process process;
    private boolean paused;
    /** Extra JVM flags of the node (e.g. {@code -Dhikyaku.cluster.snapshotEvery=16}). */
    final List<String> jvmFlags = new ArrayList<>();

    NodeProcess(String id, int httpPort, int raftPort, Path dataDir, Path log) {
        this.id = id;
        this.httpPort = httpPort;
        this.raftPort = raftPort;
        this.dataDir = dataDir;
        this.log = log;
    }

    Path dataDir() {
        return dataDir;
    }

    /** The shaded server jar ({@code -Dhikyaku.server.jar}), which the reactor packages before this module. */
    static Path builtJar() {
        Path jar = Path.of(System.getProperty("hikyaku.server.jar", "../server/target/hikyaku.jar"));
        if (!Files.isRegularFile(jar)) {
            throw new AssertionError("server jar " + jar.toAbsolutePath() + " is not built: run "
                    + "mvn -pl cluster-tests -am verify (or package the server first)");
        }
        return jar;
    }

    /** Starts the process (returns at once; see {@link #healthy()}). */
    synchronized void start(Path jar, String peers) throws IOException {
        if (this.peers == null) {
            Files.deleteIfExists(log); // this run's log only; a restart appends
        }
        this.peers = peers;
        Files.createDirectories(log.getParent());
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx160m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"));
        command.addAll(jvmFlags);
        command.addAll(List.of("-jar", jar.toString(), "serve", "--host", "127.0.0.1", "--port", Integer.toString(httpPort),
                "--data-dir", dataDir.toString(), "--node-id", id, "--cluster", peers));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        builder.environment().put("HIKYAKU_MASTER_KEY_FILE", sharedMasterKey(dataDir.getParent()).toString());
        process = builder.start();
        paused = false;
    }

    /**
     * The KMS master key every node of a cluster must share ({@code HIKYAKU_MASTER_KEY_FILE}): one file beside the
     * nodes' data directories, made once.
     */
    static synchronized Path sharedMasterKey(Path dir) throws IOException {
        Path key = dir.resolve("cluster-master.key");
        if (!Files.exists(key)) {
            Files.createDirectories(dir);
            byte[] raw = new byte[32];
            new java.security.SecureRandom().nextBytes(raw);
            Files.writeString(key, java.util.HexFormat.of().formatHex(raw) + "\n");
        }
        return key;
    }

    /** Starts it again on the same data directory and ports. */
    void restart(Path jar) throws IOException {
        start(jar, peers);
    }

    URI endpoint() {
        return URI.create("http://127.0.0.1:" + httpPort);
    }

    synchronized boolean alive() {
        return process != null && process.isAlive();
    }

    /** GET /health as JSON, or null when the node does not answer within a second. */
    JsonNode health() {
        try {
            HttpURLConnection c = (HttpURLConnection) endpoint().resolve("/health").toURL().openConnection();
            c.setConnectTimeout(500);
            c.setReadTimeout(1000);
            try (var in = c.getResponseCode() < 400 ? c.getInputStream() : c.getErrorStream()) {
                return JSON.readTree(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            } finally {
                c.disconnect();
            }
        } catch (IOException e) {
            return null;
        }
    }

    boolean healthy() {
        JsonNode h = health();
        return h != null && "ok".equals(h.path("status").asText());
    }

    /** This node's role in the group (LEADER, FOLLOWER, CANDIDATE), or null when it does not answer. */
    String role() {
        JsonNode h = health();
        return h == null ? null : h.at("/cluster/groups/0/role").asText(null);
    }

    /** The leader this node knows of, or null. */
    String leader() {
        JsonNode h = health();
        JsonNode l = h == null ? null : h.at("/cluster/groups/0/leader");
        return l == null || l.isNull() || l.isMissingNode() ? null : l.asText();
    }

    /** The index of the last Raft entry this node applied to its store, or -1 when it does not answer. */
    long appliedIndex() {
        JsonNode h = health();
        return h == null ? -1 : h.at("/cluster/groups/0/appliedIndex").asLong(-1);
    }

    /** The first index this node's Raft log still holds (the log before it was purged), or -1. */
    long logStartIndex() {
        JsonNode h = health();
        return h == null ? -1 : h.at("/cluster/groups/0/logStartIndex").asLong(-1);
    }

    /** The bytes of this node's Raft log segments on disk. */
    long logBytes() throws IOException {
        try (var files = Files.walk(dataDir.resolve("raft"))) {
            return files.filter(p -> p.getFileName().toString().startsWith("log_")).mapToLong(p -> p.toFile().length()).sum();
        }
    }

    /** Runs {@code hikyaku <args>} (the same jar) to its end; returns its output, fails on a non-zero exit. */
    static String cli(Path jar, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx96m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-jar", jar.toString()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(180, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("hikyaku " + String.join(" ", args) + " did not end: " + out);
        }
        if (p.exitValue() != 0) {
            throw new AssertionError("hikyaku " + String.join(" ", args) + " exited " + p.exitValue() + ": " + out);
        }
        return out;
    }

    /** SIGKILL: no shutdown hook, no flush, no close. */
    synchronized void kill() throws InterruptedException {
        if (process == null) {
            return;
        }
        if (paused) {
            signal("CONT"); // a stopped process dies of SIGKILL too, but resume keeps the bookkeeping simple
        }
        process.destroyForcibly();
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
            throw new AssertionError(id + " did not die after SIGKILL");
        }
    }

    /** SIGSTOP: the process is frozen (its sockets stay open, nothing answers). */
    synchronized void pause() throws IOException, InterruptedException {
        signal("STOP");
        paused = true;
    }

    /** SIGCONT. */
    synchronized void resume() throws IOException, InterruptedException {
        signal("CONT");
        paused = false;
    }

    private void signal(String name) {
        try {
            Process k = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).inheritIO().start();
            if (!k.waitFor(10, TimeUnit.SECONDS) || k.exitValue() != 0) {
                throw new AssertionError("kill -" + name + " " + process.pid() + " failed");
            }
        } catch (IOException e) {
            throw new AssertionError("cannot signal " + id, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted signalling " + id, e);
        }
    }

    String logTail() {
        try {
            String text = Files.readString(log, StandardCharsets.ISO_8859_1);
            return text.length() <= 3000 ? text : text.substring(text.length() - 3000);
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    @Override
    public void close() throws InterruptedException {
        if (alive()) {
            kill();
        }
    }

    /** {@code n} distinct free loopback ports. */
    static List<Integer> freePorts(int n) throws IOException {
        List<ServerSocket> held = new ArrayList<>();
        try {
            List<Integer> ports = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                held.add(s);
                ports.add(s.getLocalPort());
            }
            return ports;
        } finally {
            for (ServerSocket s : held) {
                s.close();
            }
        }
    }
}
