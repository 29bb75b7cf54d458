package io.hikyaku.identity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The config file's accounts section, in the shape deployments rely on. */
class IdentitiesConfigTest {

    private final IdentitiesConfig config = new IdentitiesConfig(Map.of("ALICE_SECRET", "alice-from-env")::get);

    @Test
    void readsAccountsUsersRolesAndEveryKind_ofSecret(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("key2");
        Files.writeString(file, "alice-from-file\n");
        Object accounts = List.of(Map.of(
                "id", "111111111111",
                "rootKeys", List.of(Map.of("accessKeyId", "AKIAEXAMPLEROOT00001", "secretAccessKey", "root-inline")),
                "users", List.of(Map.of("name", "alice",
                        "accessKeys", List.of(Map.of("accessKeyId", "AKIAEXAMPLEALICE001", "secretAccessKeyEnv", "ALICE_SECRET"),
                                Map.of("accessKeyId", "AKIAEXAMPLEALICE002", "secretAccessKeyFile", file.toString())),
                        "policies", Map.of("send-orders", Map.of("Version", "2012-10-17", "Statement", List.of())))),
                "roles", List.of(Map.of("name", "worker", "maxSessionDurationSeconds", "7200",
                        "trustPolicy", Map.of("Version", "2012-10-17", "Statement", List.of())))));
        Identities ids = config.parse(accounts, "test");
        Credential root = ids.key("AKIAEXAMPLEROOT00001").orElseThrow();
        assertThat(root.principal().arn()).isEqualTo("arn:aws:iam::111111111111:root");
        assertThat(root.secret().reveal()).isEqualTo("root-inline");
        Credential alice1 = ids.key("AKIAEXAMPLEALICE001").orElseThrow();
        Credential alice2 = ids.key("AKIAEXAMPLEALICE002").orElseThrow();
        assertThat(alice1.secret().reveal()).isEqualTo("alice-from-env");
        assertThat(alice2.secret().reveal()).isEqualTo("alice-from-file");
        assertThat(alice1.principal()).isEqualTo(alice2.principal());
        assertThat(alice1.principal().arn()).isEqualTo("arn:aws:iam::111111111111:user/alice");
        assertThat(alice1.principal().userId()).matches("AIDA[A-Z2-7]{17}");
        assertThat(alice1.principal().identityPolicies()).containsKey("send-orders");
        Role worker = ids.role("arn:aws:iam::111111111111:role/worker").orElseThrow();
        assertThat(worker.maxSessionDurationSeconds()).isEqualTo(7200);
        assertThat(worker.roleId()).matches("AROA[A-Z2-7]{17}");
        // ids are stable: the same account and name give the same id
        assertThat(config.parse(accounts, "again").role(worker.arn()).orElseThrow().roleId()).isEqualTo(worker.roleId());
    }

    @Test
    void secretsNeverShow() {
        Identities ids = config.parse(List.of(Map.of("id", "111111111111",
                "rootKeys", List.of(Map.of("accessKeyId", "AKIAEXAMPLEROOT00001", "secretAccessKey", "s3cr3t-value")))), "test");
        Credential c = ids.key("AKIAEXAMPLEROOT00001").orElseThrow();
        assertThat(c.toString()).doesNotContain("s3cr3t-value");
        assertThat(c.secret().toString()).doesNotContain("s3cr3t-value");
        assertThat(ids.toString()).doesNotContain("s3cr3t-value");
    }

    @Test
    void mistakesAreNamedWithoutTheSecret() {
        assertThatThrownBy(() -> config.parse(List.of(Map.of("id", "1234")), "f.yaml"))
                .hasMessage("f.yaml: accounts[0].id: an account id must be 12 digits, got 1234");
        assertThatThrownBy(() -> config.parse(List.of(Map.of("id", "111111111111", "rootKeys",
                List.of(Map.of("accessKeyId", "AKIAEXAMPLEROOT00001", "secretAccessKey", "hidden-value", "secretAccessKeyEnv", "X")))), "f"))
                .hasMessageContaining("give exactly one of").hasMessageNotContaining("hidden-value");
        assertThatThrownBy(() -> config.parse(List.of(Map.of("id", "111111111111", "rootKeys",
                List.of(Map.of("accessKeyId", "AKIAEXAMPLEROOT00001", "secretAccessKeyEnv", "UNSET_VAR")))), "f"))
                .hasMessage("f: accounts[0].rootKeys[0].secretAccessKeyEnv: environment variable UNSET_VAR is not set");
        assertThatThrownBy(() -> config.parse(List.of(Map.of("id", "111111111111", "rootKeys",
                List.of(Map.of("accessKeyId", "ASIAEXAMPLEROOT00001", "secretAccessKey", "x")))), "f"))
                .hasMessageContaining("ASIA... ids are kept for temporary credentials");
        assertThatThrownBy(() -> config.parse(List.of(Map.of("id", "111111111111", "user", List.of())), "f"))
                .hasMessageContaining("unknown key 'user'");
        assertThatThrownBy(() -> config.parse(List.of(
                Map.of("id", "111111111111", "rootKeys", List.of(Map.of("accessKeyId", "AKIAEXAMPLEROOT00001", "secretAccessKey", "a"))),
                Map.of("id", "222222222222", "rootKeys", List.of(Map.of("accessKeyId", "AKIAEXAMPLEROOT00001", "secretAccessKey", "b")))), "f"))
                .hasMessage("access key id AKIAEXAMPLEROOT00001 is configured twice");
        assertThatThrownBy(() -> config.parse(List.of(Map.of("id", "111111111111", "roles",
                List.of(Map.of("name", "r", "maxSessionDurationSeconds", "60")))), "f"))
                .hasMessageContaining("maxSessionDurationSeconds: must be 3600..43200");
    }

    @Test
    void newKeysHaveAwsShapes() {
        NewKeys keys = new NewKeys();
        assertThat(keys.longTermKeyId()).matches("AKIA[A-Z2-7]{16}");
        assertThat(keys.temporaryKeyId()).matches("ASIA[A-Z2-7]{16}");
        assertThat(keys.secret()).matches("[A-Za-z0-9+/]{40}");
        assertThat(keys.secret()).isNotEqualTo(keys.secret());
    }
}
