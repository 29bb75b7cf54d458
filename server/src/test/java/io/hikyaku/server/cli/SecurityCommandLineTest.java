package io.hikyaku.server.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hikyaku.identity.AuthMode;
import io.hikyaku.server.SecurityConfig;
import io.hikyaku.server.config.ConfigException;
import io.hikyaku.server.config.ConfigFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** --auth, --allow-unauthenticated, TLS settings, the accounts section and `hikyaku new-key`. */
class SecurityCommandLineTest {

    @TempDir
    Path dir;

    private static final String ACCOUNTS = """
            accounts:
              - id: "111111111111"
                rootKeys: [{accessKeyId: AKIAEXAMPLEROOT00001, secretAccessKeyEnv: ROOT_SECRET}]
            """;

    @Test
    void authDefaultsToNoneAndLayersLikeEverySetting() throws Exception {
        Path file = Files.writeString(dir.resolve("c.yaml"), "server:\n  auth: sigv4\n" + ACCOUNTS);
        Map<String, String> env = Map.of("ROOT_SECRET", "s");
        assertThat(new ServeCommand(env).resolveSecurity().auth()).isEqualTo(AuthMode.NONE);
        SecurityConfig fromFile = new ServeCommand(env).resolveSecurity("--config", file.toString());
        assertThat(fromFile.auth()).isEqualTo(AuthMode.SIGV4);
        assertThat(fromFile.identities().key("AKIAEXAMPLEROOT00001")).isPresent();
        assertThat(new ServeCommand(Map.of("ROOT_SECRET", "s", "HIKYAKU_AUTH", "none")).resolveSecurity("--config", file.toString()).auth())
                .isEqualTo(AuthMode.NONE);
        assertThat(new ServeCommand(Map.of("ROOT_SECRET", "s", "HIKYAKU_AUTH", "none")).resolveSecurity("--config", file.toString(), "--auth", "SIGV4")
                .auth()).isEqualTo(AuthMode.SIGV4);
        assertThat(new ServeCommand(Map.of()).resolveSecurity("--allow-unauthenticated").allowUnauthenticated()).isTrue();
        assertThat(new ServeCommand(Map.of("HIKYAKU_ALLOW_UNAUTHENTICATED", "true")).resolveSecurity().allowUnauthenticated()).isTrue();
    }

    @Test
    void theMetricsTokenFileComesFromTheFlagTheEnvironmentOrTheConfigFile() throws Exception {
        Path token = Files.writeString(dir.resolve("t"), "x");
        Path config = Files.writeString(dir.resolve("m.yaml"), "server:\n  metricsTokenFile: " + token + "\n");
        assertThat(new ServeCommand(Map.of()).resolveSecurity().metricsTokenFile()).isNull();
        assertThat(new ServeCommand(Map.of()).resolveSecurity("--metrics-token-file", token.toString()).metricsTokenFile()).isEqualTo(token);
        assertThat(new ServeCommand(Map.of("HIKYAKU_METRICS_TOKEN_FILE", token.toString())).resolveSecurity().metricsTokenFile()).isEqualTo(token);
        assertThat(new ServeCommand(Map.of()).resolveSecurity("--config", config.toString()).metricsTokenFile()).isEqualTo(token);
    }

    @Test
    void badAuthValuesAndMissingSecretsAreConfigErrors() throws Exception {
        assertThatThrownBy(() -> new ServeCommand(Map.of("HIKYAKU_AUTH", "basic")).resolveSecurity())
                .isInstanceOf(ConfigException.class).hasMessage("HIKYAKU_AUTH: auth must be none or sigv4, got basic");
        Path file = Files.writeString(dir.resolve("c.yaml"), ACCOUNTS);
        assertThatThrownBy(() -> new ServeCommand(Map.of()).resolveSecurity("--config", file.toString()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("accounts[0].rootKeys[0].secretAccessKeyEnv: environment variable ROOT_SECRET is not set");
        assertThatThrownBy(() -> new ServeCommand(Map.of()).resolveSecurity("--tls-cert", "c.pem"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("TLS needs both a certificate");
    }

    @Test
    void authNoneIsNotExposedBeyondLoopbackUnlessAllowed() {
        StartFailureTest.Outcome o = StartFailureTest.run("serve", "--port", "0", "--storage", "memory", "--host", "0.0.0.0");
        StartFailureTest.assertOneLineFailure(o, "refusing to serve without authentication on 0.0.0.0");
        SecurityConfig none = SecurityConfig.defaults();
        none.checkExposure("127.0.0.1");
        none.checkExposure("localhost");
        none.checkExposure("::1");
        assertThatThrownBy(() -> none.checkExposure("0.0.0.0")).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> none.checkExposure("::")).isInstanceOf(IllegalStateException.class);
        none.withAllowUnauthenticated(true).checkExposure("0.0.0.0");
        none.withAuth(AuthMode.SIGV4).checkExposure("0.0.0.0");
    }

    @Test
    void queuesNameTheirAccount() {
        ConfigFile file = ConfigFile.parse("queues:\n  - {name: a, account: \"111111111111\"}\n  - {name: a}\n");
        assertThat(file.queues().get(0).account()).isEqualTo("111111111111");
        assertThat(file.queues().get(1).account()).isNull();
        assertThatThrownBy(() -> ConfigFile.parse("queues:\n  - {name: a, account: \"12\"}\n")).hasMessageContaining("account id must be 12 digits");
    }

    @Test
    void newKeyPrintsAFreshKeyAndSecret() {
        StartFailureTest.Outcome first = StartFailureTest.run("new-key");
        StartFailureTest.Outcome second = StartFailureTest.run("new-key");
        assertThat(first.code()).isZero();
        assertThat(first.out()).matches("accessKeyId: AKIA[A-Z2-7]{16}\\R" + "secretAccessKey: [A-Za-z0-9+/]{40}\\R");
        assertThat(first.out()).isNotEqualTo(second.out());
    }

    @Test
    void allowedHostsComeFromTheFileTheEnvironmentOrTheFlagLayeredAsEverySetting() throws Exception {
        assertThat(new ServeCommand(Map.of()).resolveSecurity().allowedHosts()).isEmpty();
        Path list = Files.writeString(dir.resolve("list.yaml"), "server:\n  allowedHosts: [queues.lan, .dev.example]\n");
        Path text = Files.writeString(dir.resolve("text.yaml"), "server:\n  allowedHosts: \"a.lan, b.lan\"\n");
        assertThat(new ServeCommand(Map.of()).resolveSecurity("--config", list.toString()).allowedHosts())
                .containsExactly("queues.lan", ".dev.example");
        assertThat(new ServeCommand(Map.of()).resolveSecurity("--config", text.toString()).allowedHosts()).containsExactly("a.lan", "b.lan");
        assertThat(new ServeCommand(Map.of("HIKYAKU_ALLOWED_HOSTS", "env.lan")).resolveSecurity("--config", list.toString()).allowedHosts())
                .containsExactly("env.lan");
        assertThat(new ServeCommand(Map.of("HIKYAKU_ALLOWED_HOSTS", "env.lan")).resolveSecurity("--allowed-hosts", "flag.lan,*").allowedHosts())
                .containsExactly("flag.lan", "*");
        assertThatThrownBy(() -> new ServeCommand(Map.of()).resolveSecurity("--allowed-hosts", "http://x.lan/"))
                .hasMessageContaining("allowed host");
    }
}
