package io.hikyaku.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hikyaku.server.config.ConfigException;
import io.hikyaku.server.config.ConfigFile;
import io.hikyaku.server.config.ConfigResolver;
import io.hikyaku.server.config.EnvironmentSettings;
import io.hikyaku.server.config.Settings;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The index budget: its default from the max heap, and the three places that set it. */
class MemoryBudgetTest {

    @Test
    void theDefaultIsHalfTheMaxHeapAt160BytesAnEntry() {
        assertThat(MemoryBudget.resolve(0, 1024L * 1024 * 1024)).isEqualTo(3_355_443);
        assertThat(MemoryBudget.resolve(0, 64L * 1024 * 1024)).isEqualTo(209_715);
        assertThat(MemoryBudget.resolve(0, 1024)).isEqualTo(1_000); // a floor for absurd heaps
        assertThat(MemoryBudget.resolve(42, 1024L * 1024 * 1024)).isEqualTo(42);
    }

    @Test
    void setByConfigFileEnvironmentOrFlagInThatOrder() {
        ConfigFile file = ConfigFile.parse("server:\n  maxIndexedMessages: 1000\n");
        assertThat(file.settings().maxIndexedMessages()).isEqualTo(1000L);
        Settings env = EnvironmentSettings.from(Map.of("HIKYAKU_MAX_INDEXED_MESSAGES", "2000"));
        Settings none = Settings.NONE;
        assertThat(ConfigResolver.resolve(ServerConfig.defaults(), file, EnvironmentSettings.from(Map.of()), none)
                .maxIndexedMessages()).isEqualTo(1000);
        assertThat(ConfigResolver.resolve(ServerConfig.defaults(), file, env, none).maxIndexedMessages()).isEqualTo(2000);
        assertThat(ServerConfig.defaults().maxIndexedMessages()).isZero(); // 0 = from the heap
    }

    @Test
    void onlyWholeNumbersOfAtLeastOne() {
        assertThatThrownBy(() -> ConfigFile.parse("server:\n  maxIndexedMessages: 0\n"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("maxIndexedMessages").hasMessageContaining("at least 1");
        assertThatThrownBy(() -> EnvironmentSettings.from(Map.of("HIKYAKU_MAX_INDEXED_MESSAGES", "lots")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("HIKYAKU_MAX_INDEXED_MESSAGES");
    }
}
