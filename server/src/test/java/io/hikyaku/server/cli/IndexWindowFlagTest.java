package io.hikyaku.server.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hikyaku.server.ServerConfig;
import io.hikyaku.server.config.ConfigException;
import io.hikyaku.server.config.ConfigFile;
import io.hikyaku.server.config.EnvironmentSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --index-window}, {@code HIKYAKU_INDEX_WINDOW} and {@code server.indexWindow}: layered and bounded. */
class IndexWindowFlagTest {

    @TempDir
    Path dir;

    @Test
    void theDefaultIsTheEnginesAndFlagsWinOverTheEnvironmentWhichWinsOverTheFile() throws Exception {
        assertThat(new ServeCommand(Map.of()).resolveConfig().indexWindow()).isEqualTo(65_536);
        Path file = dir.resolve("hikyaku.yaml");
        Files.writeString(file, "server:\n  indexWindow: 4096\n");
        assertThat(new ServeCommand(Map.of()).resolveConfig("--config", file.toString()).indexWindow()).isEqualTo(4096);
        ServeCommand serve = new ServeCommand(Map.of("HIKYAKU_INDEX_WINDOW", "8192"));
        assertThat(serve.resolveConfig("--config", file.toString()).indexWindow()).isEqualTo(8192);
        assertThat(serve.resolveConfig("--config", file.toString(), "--index-window", "1024").indexWindow()).isEqualTo(1024);
        assertThat(serve.resolveConfig("--index-window", "16777216").indexWindow()).as("the largest").isEqualTo(16_777_216);
    }

    @Test
    void valuesOutsideTheBoundsAreRefusedWithTheRule() {
        ServeCommand serve = new ServeCommand(Map.of());
        assertThatThrownBy(() -> serve.resolveConfig("--index-window", "1023")).isInstanceOf(UsageException.class)
                .hasMessage("invalid value for --index-window: the index window must be 1024..16777216 visible messages "
                        + "per queue, got 1023");
        assertThatThrownBy(() -> serve.resolveConfig("--index-window", "16777217")).isInstanceOf(UsageException.class)
                .hasMessageContaining("must be 1024..16777216");
        assertThatThrownBy(() -> serve.resolveConfig("--index-window", "wide")).isInstanceOf(UsageException.class)
                .hasMessageContaining("is not a whole number");
        assertThatThrownBy(() -> EnvironmentSettings.from(Map.of("HIKYAKU_INDEX_WINDOW", "10")))
                .isInstanceOf(ConfigException.class)
                .hasMessage("HIKYAKU_INDEX_WINDOW: the index window must be 1024..16777216 visible messages per queue, got 10");
        assertThatThrownBy(() -> EnvironmentSettings.from(Map.of("HIKYAKU_INDEX_WINDOW", "0")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("HIKYAKU_INDEX_WINDOW");
        assertThatThrownBy(() -> ConfigFile.parse("server:\n  indexWindow: 100000000\n"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("indexWindow")
                .hasMessageContaining("must be 1024..16777216");
        assertThatThrownBy(() -> ServerConfig.defaults().withIndexWindow(512))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("got 512");
    }
}
