package io.hikyaku.server.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hikyaku.server.config.ConfigException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MetricsFlagTest {

    @TempDir
    Path dir;

    @Test
    void onByDefaultThenConfigFileEnvironmentAndFlagInThatOrder() throws Exception {
        assertThat(new ServeCommand(Map.of()).resolveConfig().metrics()).isTrue();
        Path config = dir.resolve("hikyaku.yaml");
        Files.writeString(config, "server:\n  metrics: off\n");
        assertThat(new ServeCommand(Map.of()).resolveConfig("--config", config.toString()).metrics()).isFalse();
        ServeCommand withEnv = new ServeCommand(Map.of("HIKYAKU_METRICS", "on"));
        assertThat(withEnv.resolveConfig("--config", config.toString()).metrics()).isTrue();
        assertThat(withEnv.resolveConfig("--config", config.toString(), "--metrics", "off").metrics()).isFalse();
    }

    @Test
    void refusesAnythingButOnOrOff() {
        assertThatThrownBy(() -> new ServeCommand(Map.of()).resolveConfig("--metrics", "maybe"))
                .hasMessageContaining("--metrics");
        assertThatThrownBy(() -> new ServeCommand(Map.of("HIKYAKU_METRICS", "sometimes")).resolveConfig())
                .isInstanceOf(ConfigException.class).hasMessageContaining("HIKYAKU_METRICS");
    }
}
