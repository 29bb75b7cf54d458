package io.hikyaku.server.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hikyaku.server.HikyakuServer;
import io.hikyaku.server.ServerConfig;
import io.hikyaku.server.StorageMode;
import io.hikyaku.server.config.ConfigException;
import io.hikyaku.server.http.ConnectionLimits;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The connection limits set by config file, environment and flags (in that order), and refused when wrong. */
class ConnectionLimitFlagsTest {

    @TempDir
    Path dir;

    @Test
    void defaultsThenConfigFileEnvironmentAndFlags() throws Exception {
        assertThat(new ServeCommand(Map.of()).resolveConnectionLimits()).isEqualTo(ConnectionLimits.DEFAULTS);
        Path config = dir.resolve("hikyaku.yaml");
        Files.writeString(config, "server:\n  maxConnections: 500\n  maxConnectionsPerAddress: 50\n  requestHeadTimeout: 5\n  requestBodyTimeout: 30\n");
        ConnectionLimits fromFile = new ServeCommand(Map.of()).resolveConnectionLimits("--config", config.toString());
        assertThat(fromFile.maxConnections()).isEqualTo(500);
        assertThat(fromFile.maxConnectionsPerAddress()).isEqualTo(50);
        assertThat(fromFile.headTimeoutMillis()).isEqualTo(5_000);
        assertThat(fromFile.bodyTimeoutMillis()).isEqualTo(30_000);
        assertThat(fromFile.maxPendingHeadBytes()).isEqualTo(ConnectionLimits.DEFAULTS.maxPendingHeadBytes());
        ServeCommand withEnv = new ServeCommand(Map.of("HIKYAKU_MAX_CONNECTIONS_PER_ADDRESS", "40", "HIKYAKU_REQUEST_HEAD_TIMEOUT", "7"));
        ConnectionLimits env = withEnv.resolveConnectionLimits("--config", config.toString());
        assertThat(env.maxConnectionsPerAddress()).isEqualTo(40);
        assertThat(env.headTimeoutMillis()).isEqualTo(7_000);
        ConnectionLimits flags = withEnv.resolveConnectionLimits("--config", config.toString(), "--max-connections-per-address", "3",
                "--request-body-timeout", "9", "--max-connections", "600");
        assertThat(flags).isEqualTo(new ConnectionLimits(600, 3, fromFile.maxPendingHeadBytes(), fromFile.maxPendingBodyBytes(),
                7_000, 9_000, fromFile.maxUnauthenticatedBodyBytes()));
        // a total below the default per-address limit lowers that too
        assertThat(new ServeCommand(Map.of()).resolveConnectionLimits("--max-connections", "100").maxConnectionsPerAddress()).isEqualTo(100);
    }

    @Test
    void aBadValueIsAClearStartUpError() throws Exception {
        ServeCommand serve = new ServeCommand(Map.of());
        assertThatThrownBy(() -> serve.resolveConnectionLimits("--max-connections-per-address", "0")).isInstanceOf(ConfigException.class)
                .hasMessage("invalid value for --max-connections-per-address: '0' (expected a whole number of connections from 1 to 1000000)");
        assertThatThrownBy(() -> serve.resolveConnectionLimits("--request-head-timeout", "20s"))
                .hasMessage("invalid value for --request-head-timeout: '20s' (expected a whole number of seconds from 1 to 86400)");
        assertThatThrownBy(() -> serve.resolveConnectionLimits("--request-body-timeout", "-1"))
                .hasMessageStartingWith("invalid value for --request-body-timeout: '-1'");
        assertThatThrownBy(() -> serve.resolveConnectionLimits("--max-connections", "99999999999"))
                .hasMessageStartingWith("invalid value for --max-connections: '99999999999'");
        assertThatThrownBy(() -> new ServeCommand(Map.of("HIKYAKU_MAX_CONNECTIONS", "many")).resolveConnectionLimits())
                .hasMessageStartingWith("invalid value for HIKYAKU_MAX_CONNECTIONS: 'many'");
        Path config = dir.resolve("bad.yaml");
        Files.writeString(config, "server:\n  requestBodyTimeout: 0\n");
        assertThatThrownBy(() -> serve.resolveConnectionLimits("--config", config.toString()))
                .hasMessageContaining("server.requestBodyTimeout: '0'");
        assertThatThrownBy(() -> serve.resolveConnectionLimits("--max-connections", "10", "--max-connections-per-address", "20"))
                .hasMessageStartingWith("the connection limit per address (20) must not exceed the total connection limit (10)");
        // and the command line reports it as a start-up error (exit status 2), before any server starts
        java.io.StringWriter err = new java.io.StringWriter();
        int status = HikyakuCommand.commandLine(Map.of(), new java.io.PrintWriter(new java.io.StringWriter()), new java.io.PrintWriter(err))
                .execute("serve", "--storage", "memory", "--port", "0", "--max-connections-per-address", "none");
        assertThat(status).isEqualTo(2);
        assertThat(err.toString()).contains("invalid value for --max-connections-per-address: 'none'");
    }

    @Test
    void theFlagLowersThePerAddressLimitOfARealServer() throws Exception {
        ConnectionLimits limits = new ServeCommand(Map.of()).resolveConnectionLimits("--max-connections-per-address", "2");
        try (HikyakuServer server = HikyakuServer.start(ServerConfig.defaults().withPort(0).withStorage(StorageMode.MEMORY),
                io.hikyaku.server.SecurityConfig.defaults(), limits)) {
            List<Socket> open = new ArrayList<>();
            try {
                for (int i = 0; i < 2; i++) {
                    Socket s = connect(server.port());
                    open.add(s);
                    assertThat(health(s)).startsWith("HTTP/1.1 200");
                }
                try (Socket third = connect(server.port())) {
                    assertThat(closedByServer(third)).as("a third connection from 127.0.0.1").isTrue();
                }
            } finally {
                for (Socket s : open) {
                    s.close();
                }
            }
        }
    }

    private static Socket connect(int port) throws IOException {
        Socket s = new Socket();
        s.connect(new InetSocketAddress("127.0.0.1", port), 2_000);
        s.setSoTimeout(5_000);
        return s;
    }

    /** The status line of GET /health on {@code s}. */
    private static String health(Socket s) throws IOException {
        s.getOutputStream().write("GET /health HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        s.getOutputStream().flush();
        InputStream in = s.getInputStream();
        StringBuilder line = new StringBuilder();
        for (int b = in.read(); b != -1 && b != '\n'; b = in.read()) {
            line.append((char) b);
        }
        return line.toString().trim();
    }

    /** Whether the server closes {@code s} without answering a request sent on it. */
    private static boolean closedByServer(Socket s) {
        try {
            return health(s).isEmpty();
        } catch (IOException reset) {
            return true;
        }
    }
}
