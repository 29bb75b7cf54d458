package io.hikyaku.server.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hikyaku.server.config.ConfigException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EngineShardsFlagTest {

    @TempDir
    Path dir;

    @Test
    void oneByDefaultThenConfigFileEnvironmentAndFlagInThatOrder() throws Exception {
        assertThat(new ServeCommand(Map.of()).resolveConfig().engineShards()).isEqualTo(1);
        Path config = dir.resolve("hikyaku.yaml");
        Files.writeString(config, "server:\n  engineShards: 4\n");
        assertThat(new ServeCommand(Map.of()).resolveConfig("--config", config.toString()).engineShards()).isEqualTo(4);
        ServeCommand withEnv = new ServeCommand(Map.of("HIKYAKU_ENGINE_SHARDS", "2"));
        assertThat(withEnv.resolveConfig("--config", config.toString()).engineShards()).isEqualTo(2);
        assertThat(withEnv.resolveConfig("--config", config.toString(), "--engine-shards", "3").engineShards()).isEqualTo(3);
    }

    @Test
    void refusesZeroAndTooMany() {
        assertThatThrownBy(() -> new ServeCommand(Map.of()).resolveConfig("--engine-shards", "0"))
                .hasMessageContaining("--engine-shards");
        assertThatThrownBy(() -> new ServeCommand(Map.of("HIKYAKU_ENGINE_SHARDS", "two")).resolveConfig())
                .isInstanceOf(ConfigException.class).hasMessageContaining("HIKYAKU_ENGINE_SHARDS");
        assertThatThrownBy(() -> new ServeCommand(Map.of()).resolveConfig("--engine-shards", "65"))
                .hasMessageStartingWith("--engine-shards must be 1..64").hasMessageEndingWith("not 65");
    }

    @Test
    void aJournalWithSeveralShardsIsAccepted() {
        var config = new ServeCommand(Map.of()).resolveConfig("--engine-shards", "2", "--journal",
                dir.resolve("j").toString());
        assertThat(config.engineShards()).isEqualTo(2);
        assertThat(config.journal()).isEqualTo(dir.resolve("j")); // each shard writes j.shard-i-of-2
    }
}
