package io.hikyaku.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 35: one client opening 1,500 connections, each sending an unfinished request line, or a
 * line and unfinished headers, just under the line and header limits (65-90 KB each), exhausted the server's direct memory and
 * wedged it. The real server runs in a child JVM with a small direct-memory cap (as the launcher sets
 * one); {@code /health} must answer within a second during the flood and after it, and the server
 * must serve normally once the client has left.
 */
class ConnectionFloodTest {

    static final int CONNECTIONS = 1_500;
    static final int LINE_BYTES = 60_000;
    static final int HEADER_LINES = 28;
    static final int HEADER_LINE_BYTES = 1_000;

    @TempDir
    Path dir;
    Process server;

    @AfterEach
    void stop() throws InterruptedException {
        if (server != null) {
            server.destroy();
            if (!server.waitFor(10, TimeUnit.SECONDS)) {
                server.destroyForcibly();
            }
        }
    }

    @Test
    void aFloodOfUnfinishedHeadsNeitherWedgesTheServerNorOutlivesTheClient() throws Exception {
        int port = freePort();
        Path log = dir.resolve("server.log");
        server = startServer(port, log);

        byte[] unfinishedLine = unfinishedLine();
        byte[] unfinishedHeaders = unfinishedHeaders();
        List<Long> latencies = new CopyOnWriteArrayList<>();
        List<String> failures = new CopyOnWriteArrayList<>();
        AtomicBoolean probing = new AtomicBoolean(true);
        Thread prober = new Thread(() -> {
            while (probing.get()) {
                long t0 = System.nanoTime();
                try {
                    int status = health(port);
                    latencies.add((System.nanoTime() - t0) / 1_000_000);
                    if (status != 200) {
                        failures.add("status " + status);
                    }
                } catch (IOException e) {
                    failures.add(e + " after " + (System.nanoTime() - t0) / 1_000_000 + " ms");
                }
                sleep(100);
            }
        }, "health-prober");
        prober.start();

        // The flood, from its own loopback address (127.0.0.2) so that /health (127.0.0.1) is another source.
        List<SocketChannel> flood = new ArrayList<>();
        int opened = 0;
        int refused = 0;
        long floodStart = System.nanoTime();
        try {
            for (int i = 0; i < CONNECTIONS; i++) {
                try {
                    SocketChannel c = SocketChannel.open();
                    c.bind(new InetSocketAddress("127.0.0.2", 0));
                    c.socket().connect(new InetSocketAddress("127.0.0.1", port), 1_000);
                    c.configureBlocking(false);
                    flood.add(c);
                    opened++;
                } catch (IOException e) {
                    refused++;
                }
            }
            List<ByteBuffer> pending = new ArrayList<>();
            for (int i = 0; i < flood.size(); i++) {
                pending.add(ByteBuffer.wrap(i % 2 == 0 ? unfinishedLine : unfinishedHeaders));
            }
            long writeDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
            boolean more = true;
            while (more && System.nanoTime() < writeDeadline) {
                more = false;
                for (int i = 0; i < flood.size(); i++) {
                    ByteBuffer b = pending.get(i);
                    if (b == null || !b.hasRemaining()) {
                        continue;
                    }
                    try {
                        flood.get(i).write(b);
                        more |= b.hasRemaining();
                    } catch (IOException closedByServer) {
                        pending.set(i, null);
                    }
                }
            }
            sleep(1_500); // the flood holds its connections while /health is probed
            ByteBuffer probe = ByteBuffer.allocate(512);
            for (SocketChannel c : flood) {
                try {
                    probe.clear();
                    while (c.read(probe) > 0) {
                        probe.clear();
                    }
                    if (c.read(probe) < 0) {
                        refused++;
                    }
                } catch (IOException closedByServer) {
                    refused++;
                }
            }
        } finally {
            for (SocketChannel c : flood) {
                c.close();
            }
        }
        long floodMillis = (System.nanoTime() - floodStart) / 1_000_000;
        sleep(2_000); // the client has left: probing goes on
        probing.set(false);
        prober.join();

        long max = latencies.stream().mapToLong(Long::longValue).max().orElse(-1);
        System.out.printf("flood: %d connections opened, %d refused or closed by the server, %d ms; /health %d probes,"
                + " max %d ms, %d failed%n", opened, refused, floodMillis, latencies.size(), max, failures.size());
        assertThat(failures).as("/health failures during and after the flood; server log:%n%s", tail(log)).isEmpty();
        assertThat(max).as("slowest /health").isLessThan(1_000);
        assertThat(latencies.size()).as("/health probes answered").isGreaterThan(10);

        // Served normally after the client left: a real SQS call over a fresh connection.
        try (RawHttp http = new RawHttp(port)) {
            http.send(RawHttp.jsonCall("CreateQueue", "{\"QueueName\":\"after-flood\"}"));
            RawHttp.Response created = http.read();
            assertThat(created.status()).as(created.body()).isEqualTo(200);
            assertThat(created.body()).contains("after-flood");
        }
        assertThat(Files.readString(log)).as("a summary, not a stack trace per connection")
                .doesNotContain("OutOfDirectMemoryError").doesNotContain("\tat io.netty");
    }

    /** A request line just under the 64 KiB limit, without its end: Netty holds it in a direct buffer. */
    static byte[] unfinishedLine() {
        return ("GET /?Action=ListQueues&pad=" + "a".repeat(LINE_BYTES + 5_000)).getBytes(StandardCharsets.US_ASCII);
    }

    /** A complete request line and headers just under the 32 KiB limit, without the blank line that ends them. */
    static byte[] unfinishedHeaders() {
        StringBuilder sb = new StringBuilder("GET /?Action=ListQueues&pad=");
        sb.append("a".repeat(LINE_BYTES)).append(" HTTP/1.1\r\nHost: 127.0.0.1\r\n");
        for (int i = 0; i < HEADER_LINES; i++) {
            sb.append("X-Pad-").append(i).append(": ").append("b".repeat(HEADER_LINE_BYTES)).append("\r\n");
        }
        return sb.toString().getBytes(StandardCharsets.US_ASCII); // no blank line: the head never ends
    }

    static Process startServer(int port, Path log) throws Exception {
        List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:MaxDirectMemorySize=64m", "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-cp", System.getProperty("java.class.path"), "io.hikyaku.server.cli.Main",
                "serve", "--storage", "memory", "--host", "127.0.0.1", "--port", Integer.toString(port));
        Process p = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            try {
                if (health(port) == 200) {
                    return p;
                }
            } catch (IOException notYet) {
                // starting
            }
            if (!p.isAlive() || System.nanoTime() > deadline) {
                p.destroyForcibly();
                throw new AssertionError("server did not start; log:\n" + tail(log));
            }
            sleep(100);
        }
    }

    /** GET /health on a new connection, with one second to connect and one to answer. */
    static int health(int port) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 1_000);
            s.setSoTimeout(1_000);
            OutputStream out = s.getOutputStream();
            out.write("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = s.getInputStream();
            byte[] line = new byte[12];
            int n = 0;
            while (n < 12) {
                int r = in.read(line, n, 12 - n);
                if (r < 0) {
                    throw new IOException("closed before a status line");
                }
                n += r;
            }
            return Integer.parseInt(new String(line, 9, 3, StandardCharsets.US_ASCII));
        }
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    static String tail(Path log) {
        try {
            String s = Files.readString(log);
            return s.length() > 4_000 ? s.substring(s.length() - 4_000) : s;
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
