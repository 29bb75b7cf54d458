package io.hikyaku.push;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Set;
import org.junit.jupiter.api.Test;

class BatchOutcomeTest {

    private static final Set<String> IDS = Set.of("a", "b", "c");

    private static BatchOutcome of(String body) {
        return BatchOutcome.of2xx(body.getBytes(StandardCharsets.UTF_8), true, IDS);
    }

    @Test
    void withoutReportBatchItemFailuresEvery2xxIsASuccess() {
        BatchOutcome o = BatchOutcome.of2xx("{\"batchItemFailures\":[{\"itemIdentifier\":\"a\"}]}".getBytes(StandardCharsets.UTF_8), false, IDS);
        assertThat(o.allFailed()).isFalse();
        assertThat(o.failedIds()).isEmpty();
    }

    @Test
    void emptyNullOrMissingListsAreCompleteSuccesses() {
        for (String body : new String[] {"", "null", "{}", "{\"batchItemFailures\":null}", "{\"batchItemFailures\":[]}"}) {
            assertThat(of(body).allFailed()).as(body).isFalse();
            assertThat(of(body).failedIds()).as(body).isEmpty();
        }
    }

    @Test
    void namedItemsFail() {
        BatchOutcome o = of("{\"batchItemFailures\":[{\"itemIdentifier\":\"b\"},{\"itemIdentifier\":\"c\"}]}");
        assertThat(o.allFailed()).isFalse();
        assertThat(o.failedIds()).containsExactly("b", "c");
    }

    @Test
    void malformedAnswersFailTheWholeBatchAsLambdaDoes() {
        for (String body : new String[] {"not json", "\"ok\"", "{\"batchItemFailures\":[{\"itemIdentifier\":\"\"}]}",
                "{\"batchItemFailures\":[{\"itemIdentifier\":null}]}", "{\"batchItemFailures\":[{\"id\":\"a\"}]}",
                "{\"batchItemFailures\":[{\"itemIdentifier\":\"zzz\"}]}", "{\"batchItemFailures\":\"a\"}"}) {
            assertThat(of(body).allFailed()).as(body).isTrue();
        }
    }
}
