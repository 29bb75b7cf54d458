package io.hikyaku.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JournalFlagTest {

    @TempDir
    Path dir;

    @Test
    void offByDefaultThenConfigFileEnvironmentAndFlagInThatOrder() throws Exception {
        assertThat(new ServeCommand(Map.of()).resolveConfig().journal()).isNull();
        Path config = dir.resolve("hikyaku.yaml");
        Files.writeString(config, "server:\n  journal: from-file.journal\n");
        assertThat(new ServeCommand(Map.of()).resolveConfig("--config", config.toString()).journal())
                .isEqualTo(Path.of("from-file.journal"));
        ServeCommand withEnv = new ServeCommand(Map.of("HIKYAKU_JOURNAL", "from-env.journal"));
        assertThat(withEnv.resolveConfig("--config", config.toString()).journal()).isEqualTo(Path.of("from-env.journal"));
        assertThat(withEnv.resolveConfig("--journal", "flag.journal").journal()).isEqualTo(Path.of("flag.journal"));
    }
}
