package io.hikyaku.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hikyaku.protocol.ApiException;
import org.junit.jupiter.api.Test;

class BatchRulesTest {

    private static String entries(String... ids) {
        StringBuilder b = new StringBuilder("{\"Entries\":[");
        for (int i = 0; i < ids.length; i++) {
            b.append(i == 0 ? "" : ",").append("{\"Id\":\"").append(ids[i]).append("\"}");
        }
        return b.append("]}").toString();
    }

    private static void fails(String json, String type, String message) {
        assertThatThrownBy(() -> BatchRules.entries(InputTest.json(json), "SendMessageBatchRequestEntry"))
                .isInstanceOf(ApiException.class).hasMessage(message)
                .satisfies(e -> assertThat(((ApiException) e).errorType()).isEqualTo(type));
    }

    @Test
    void emptyAndTooMany() {
        fails("{\"Entries\":[]}", "EmptyBatchRequest", "There should be at least one SendMessageBatchRequestEntry in the request.");
        fails("{}", "EmptyBatchRequest", "There should be at least one SendMessageBatchRequestEntry in the request.");
        String[] twenty = new String[20];
        for (int i = 0; i < 20; i++) {
            twenty[i] = "id" + i;
        }
        fails(entries(twenty), "TooManyEntriesInBatchRequest", "Maximum number of entries per request are 10. You have sent 20.");
    }

    @Test
    void invalidIds() {
        String message = "A batch entry id can only contain alphanumeric characters, hyphens and underscores. "
                + "It can be at most 80 letters long.";
        for (String bad : new String[] {"", "invalid:id", "x".repeat(81), ".!@#$%^&*()+="}) {
            fails(entries("ok", bad), "InvalidBatchEntryId", message);
        }
        assertThat(BatchRules.isValidId("x".repeat(80))).isTrue();
    }

    @Test
    void firstRepeatedIdIsNamed() {
        fails(entries("id_1", "id_2", "id_2", "id_1"), "BatchEntryIdsNotDistinct", "Id id_2 repeated.");
    }

    @Test
    void payloadLimit() {
        BatchRules.checkPayload(1_048_576);
        assertThatThrownBy(() -> BatchRules.checkPayload(1_048_577))
                .hasMessage("Batch requests cannot be longer than 1048576 bytes. You have sent 1048577 bytes.");
    }

    @Test
    void failedEntriesUseShortCodes() {
        var failed = Json.array();
        BatchRules.fail(failed, "a", Errors.missing("MessageBody"));
        assertThat(failed.get(0).get("Code").asText()).isEqualTo("MissingParameter");
        assertThat(failed.get(0).get("SenderFault").asBoolean()).isTrue();
        assertThat(failed.get(0).get("Message").asText()).isEqualTo("The request must contain the parameter MessageBody.");
    }
}
