package io.hikyaku.server.cli;

import io.hikyaku.server.LogFormat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hikyaku.server.Cooldowns;
import io.hikyaku.server.DurabilityMode;
import io.hikyaku.server.ServerConfig;
import io.hikyaku.server.StorageMode;
import io.hikyaku.server.config.ConfigException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CommandLineTest {

    @TempDir
    Path dir;

    final StringWriter out = new StringWriter();
    final StringWriter err = new StringWriter();

    ServerConfig resolve(Map<String, String> env, String... args) {
        assertThat(args[0]).isEqualTo("serve");
        return new ServeCommand(env).resolveConfig(Arrays.copyOfRange(args, 1, args.length));
    }

    @Test
    void selfcheckRunsAThrowawayServerThroughBothProtocols() {
        HikyakuCommand cl = HikyakuCommand.commandLine(Map.of(), new PrintWriter(out, true), new PrintWriter(err, true));
        assertThat(cl.execute("selfcheck")).as(err.toString()).isZero();
        assertThat(out.toString()).contains("hikyaku selfcheck: ok");
    }

    @Test
    void noArgumentsGiveTheDefaults() {
        ServerConfig c = resolve(Map.of(), "serve");
        assertThat(c.host()).isEqualTo("127.0.0.1");
        assertThat(c.port()).isEqualTo(9324);
        assertThat(c.storage()).isEqualTo(StorageMode.ROCKSDB);
        assertThat(c.dataDir()).isEqualTo(Path.of("data"));
    }

    @Test
    void fileBeatsDefaultsEnvironmentBeatsFileFlagsBeatEverything() throws Exception {
        Path file = dir.resolve("hikyaku.yaml");
        Files.writeString(file, """
                server:
                  port: 9001
                  region: eu-west-1
                  accountId: "111111111111"
                  storage: memory
                  durability: batch
                queues:
                  - name: from-file
                """);
        Map<String, String> env = Map.of("HIKYAKU_PORT", "9002", "HIKYAKU_ACCOUNT_ID", "222222222222",
                "HIKYAKU_DATA_DIR", "/env/data", "HIKYAKU_HOST", "");
        ServerConfig c = resolve(env, "serve", "--config", file.toString(), "--port", "9003", "--durability", "NONE");
        assertThat(c.port()).isEqualTo(9003);                       // flag
        assertThat(c.accountId()).isEqualTo("222222222222");        // env over file
        assertThat(c.dataDir()).isEqualTo(Path.of("/env/data"));    // env over default
        assertThat(c.region()).isEqualTo("eu-west-1");              // file over default
        assertThat(c.storage()).isEqualTo(StorageMode.MEMORY);      // file
        assertThat(c.durability()).isEqualTo(DurabilityMode.NONE);  // flag over file
        assertThat(c.host()).isEqualTo("127.0.0.1");                // empty env = unset
        assertThat(c.queues()).hasSize(1);
    }

    @Test
    void everyEnvironmentVariableIsRead() {
        ServerConfig c = resolve(Map.of("HIKYAKU_HOST", "0.0.0.0", "HIKYAKU_PORT", "0", "HIKYAKU_ACCOUNT_ID", "123456789012",
                "HIKYAKU_REGION", "ap-south-1", "HIKYAKU_ADVERTISED_URL", "http://mq:1", "HIKYAKU_STORAGE", "memory",
                "HIKYAKU_DATA_DIR", "d", "HIKYAKU_DURABILITY", "none"), "serve");
        assertThat(c).isEqualTo(ServerConfig.defaults().withHost("0.0.0.0").withPort(0).withAccountId("123456789012")
                .withRegion("ap-south-1").withAdvertisedUrl("http://mq:1").withStorage(StorageMode.MEMORY)
                .withDataDir(Path.of("d")).withDurability(DurabilityMode.NONE).withClock(c.clock()));
    }

    @Test
    void flagsAreCaseInsensitiveForModes() {
        ServerConfig c = resolve(Map.of(), "serve", "--storage", "memory", "--durability", "fsync", "--host", "::1",
                "--account-id", "999999999999", "--region", "us-west-2", "--advertised-url", "https://sqs.example.com/",
                "--data-dir", "/tmp/x", "--max-body-bytes", "100000");
        assertThat(c.storage()).isEqualTo(StorageMode.MEMORY);
        assertThat(c.host()).isEqualTo("::1");
        assertThat(c.accountId()).isEqualTo("999999999999");
        assertThat(c.advertisedUrl()).isEqualTo("https://sqs.example.com");
        assertThat(c.maxBodyBytes()).isEqualTo(100000);
    }

    @Test
    void cooldownsComeFromTheFlagTheEnvironmentOrTheDefault() {
        assertThat(resolve(Map.of(), "serve").cooldowns()).isEqualTo(Cooldowns.AWS);
        assertThat(resolve(Map.of("HIKYAKU_COOLDOWNS", "off"), "serve").cooldowns()).isEqualTo(Cooldowns.OFF);
        assertThat(resolve(Map.of("HIKYAKU_COOLDOWNS", "off"), "serve", "--cooldowns", "aws").cooldowns())
                .isEqualTo(Cooldowns.AWS);
        assertThat(resolve(Map.of(), "serve", "--cooldowns", "OFF").cooldowns()).isEqualTo(Cooldowns.OFF);
        assertThatThrownBy(() -> resolve(Map.of("HIKYAKU_COOLDOWNS", "never"), "serve"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("HIKYAKU_COOLDOWNS");
    }

    @Test
    void badEnvironmentValuesAreConfigErrors() {
        assertThatThrownBy(() -> resolve(Map.of("HIKYAKU_PORT", "x"), "serve"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("HIKYAKU_PORT");
        assertThatThrownBy(() -> resolve(Map.of("HIKYAKU_STORAGE", "disk"), "serve"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("HIKYAKU_STORAGE");
        assertThatThrownBy(() -> resolve(Map.of(), "serve", "--account-id", "12"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("12 digits");
    }

    @Test
    void versionPrintsTheProjectVersionAndTheCommit() throws Exception {
        int code = HikyakuCommand.commandLine(Map.of(), new PrintWriter(out), new PrintWriter(err)).execute("--version");
        assertThat(code).isZero();
        assertThat(out.toString()).startsWith("hikyaku ").doesNotContain("${").doesNotContain("unknown");
        // built from this checkout: the commit is the checkout's HEAD (git describe), maybe with +changes
        Process git = new ProcessBuilder("git", "rev-parse", "--short=12", "HEAD").redirectErrorStream(true).start();
        String head = new String(git.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).trim();
        if (git.waitFor() == 0) {
            assertThat(out.toString()).matches("(?s)hikyaku \\S+ \\(commit \\S*" + head + "(\\+changes)?\\)\\R?");
        }
    }

    @Test
    void unknownFlagIsAUsageError() {
        int code = HikyakuCommand.commandLine(Map.of(), new PrintWriter(out), new PrintWriter(err)).execute("serve", "--prot", "1");
        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).contains("--prot");
    }

    int run(String... args) {
        return HikyakuCommand.commandLine(Map.of(), new PrintWriter(out), new PrintWriter(err)).execute(args);
    }

    @Test
    void flagsArePrefixFreeAndTakeTheirValueEitherWay() {
        assertThat(run("serve", "--por", "1")).isEqualTo(2);
        assertThat(err.toString()).contains("--por").contains("hikyaku serve --help");
        assertThat(resolve(Map.of(), "serve", "--port=9010").port()).isEqualTo(9010);
    }

    @Test
    void badFlagValuesAndStrayArgumentsAreUsageErrors() {
        assertThat(run("serve", "--port", "x")).isEqualTo(2);
        assertThat(run("serve", "--port", "99999999999")).isEqualTo(2);
        assertThat(run("serve", "--storage", "disk")).isEqualTo(2);
        assertThat(run("serve", "extra")).isEqualTo(2);
        assertThat(run("serve", "--port")).isEqualTo(2);
        assertThat(run("nosuch")).isEqualTo(2);
        assertThat(err.toString().lines()).hasSize(6).allMatch(l -> l.startsWith("hikyaku: "));
        assertThat(err.toString()).contains("'x' is not a whole number").contains("out of range")
                .contains("'disk' (expected one of: rocksdb, memory)").contains("unexpected argument 'extra'")
                .contains("unknown command 'nosuch'");
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void aMissingCommandIsAUsageErrorWithTheUsageOnStderr() {
        assertThat(run()).isEqualTo(2);
        assertThat(out.toString()).isEmpty();
        assertThat(err.toString()).contains("Usage: hikyaku <command>").contains("serve").contains("backup");
    }

    @Test
    void theConfigFileMayComeFromHikyakuConfigAndTheFlagWins() throws Exception {
        Path fromEnv = Files.writeString(dir.resolve("env.yaml"), "queues:\n  - name: from-env\n");
        Path fromFlag = Files.writeString(dir.resolve("flag.yaml"), "queues:\n  - name: from-flag\n");
        Map<String, String> env = Map.of("HIKYAKU_CONFIG", fromEnv.toString());
        assertThat(resolve(env, "serve").queues()).extracting(q -> q.name()).containsExactly("from-env");
        assertThat(resolve(env, "serve", "--config", fromFlag.toString()).queues()).extracting(q -> q.name())
                .containsExactly("from-flag");
        assertThatThrownBy(() -> resolve(Map.of("HIKYAKU_CONFIG", dir.resolve("missing.yaml").toString()), "serve"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("missing.yaml");
    }

    @Test
    void anEmptyHostRegionOrAQueryInTheAdvertisedUrlIsAUsageError() {
        assertThat(run("serve", "--host", "")).isEqualTo(2);
        assertThat(run("serve", "--region", "")).isEqualTo(2);
        assertThat(run("serve", "--advertised-url", "http://mq:9324/?a=b")).isEqualTo(2);
        assertThat(err.toString()).contains("host must not be empty").contains("region must be")
                .contains("must not have a query or fragment");
    }

    @Test
    void helpListsTheCommandsAndEachCommandsFlags() {
        assertThat(run("--help")).isZero();
        assertThat(out.toString()).contains("serve").contains("backup").doesNotContain("selfcheck");
        out.getBuffer().setLength(0);
        assertThat(run("serve", "--help")).isZero();
        assertThat(out.toString()).contains("Usage: hikyaku serve").contains("--data-dir DIR").contains("env HIKYAKU_PORT")
                .contains("-h, --help").contains("-V, --version");
        out.getBuffer().setLength(0);
        assertThat(run("backup", "-h")).as("help needs no required flag").isZero();
        assertThat(out.toString()).contains("--to DIR");
        assertThat(err.toString()).isEmpty();
    }

    @Test
    void backupWithoutItsRequiredTargetIsAUsageError() {
        assertThat(run("backup")).isEqualTo(2);
        assertThat(err.toString()).contains("to");
    }

    @Test
    void eachCommandAlsoPrintsTheVersion() {
        assertThat(run("serve", "--version")).isZero();
        assertThat(out.toString()).startsWith("hikyaku ");
    }

    @Test
    void logFormatAndAccessLogFromFileEnvironmentAndFlags() throws Exception {
        assertThat(resolve(Map.of(), "serve").logFormat()).isEqualTo(LogFormat.TEXT);
        assertThat(resolve(Map.of(), "serve").accessLog()).isFalse();
        Path file = dir.resolve("c.yaml");
        java.nio.file.Files.writeString(file, "server:\n  logFormat: json\n  accessLog: on\n");
        ServerConfig fromFile = resolve(Map.of(), "serve", "--config", file.toString());
        assertThat(fromFile.logFormat()).isEqualTo(LogFormat.JSON);
        assertThat(fromFile.accessLog()).isTrue();
        ServerConfig fromEnv = resolve(Map.of("HIKYAKU_LOG_FORMAT", "JSON", "HIKYAKU_ACCESS_LOG", "true"), "serve");
        assertThat(fromEnv.logFormat()).isEqualTo(LogFormat.JSON);
        assertThat(fromEnv.accessLog()).isTrue();
        ServerConfig flags = resolve(Map.of("HIKYAKU_ACCESS_LOG", "on"), "serve", "--config", file.toString(),
                "--log-format", "text", "--access-log", "off");
        assertThat(flags.logFormat()).isEqualTo(LogFormat.TEXT);
        assertThat(flags.accessLog()).isFalse();
        assertThatThrownBy(() -> resolve(Map.of("HIKYAKU_LOG_FORMAT", "xml"), "serve"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("HIKYAKU_LOG_FORMAT");
        assertThatThrownBy(() -> resolve(Map.of(), "serve", "--access-log", "maybe"))
                .hasMessageContaining("--access-log");
    }
}
