package io.hikyaku.server.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class MaxIndexedMessagesFlagTest {

    @Test
    void theFlagWinsOverTheEnvironment() {
        ServeCommand serve = new ServeCommand(Map.of("HIKYAKU_MAX_INDEXED_MESSAGES", "2000"));
        assertThat(serve.resolveConfig().maxIndexedMessages()).isEqualTo(2000);
        assertThat(serve.resolveConfig("--max-indexed-messages", "5000").maxIndexedMessages()).isEqualTo(5000);
    }

    @Test
    void zeroOrWordsAreUsageErrors() {
        ServeCommand serve = new ServeCommand(Map.of());
        assertThatThrownBy(() -> serve.resolveConfig("--max-indexed-messages", "0"))
                .isInstanceOf(UsageException.class).hasMessage("invalid value for --max-indexed-messages: '0' must be at least 1");
        assertThatThrownBy(() -> serve.resolveConfig("--max-indexed-messages", "many"))
                .isInstanceOf(UsageException.class).hasMessageContaining("is not a whole number");
    }
}
