package io.hikyaku.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import java.io.InputStream;

import static io.hikyaku.protocol.Http.CODEC;
import static io.hikyaku.protocol.Http.form;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Form bodies produced by botocore's own Query serializer from the 2012-11-05 Query model (every
 * member of every input shape filled in, lists and maps with two items) decode to the same
 * parameters in JSON 1.0 shape. The fixture was generated with botocore; see PROTOCOL.md.
 */
class BotocoreQueryInputsTest {

    @Test
    void everyBotocoreSerialisedRequestDecodesToItsParameters() throws Exception {
        JsonNode cases;
        try (InputStream in = getClass().getResourceAsStream("/botocore-query-inputs.json")) {
            cases = Http.JSON.readTree(in);
        }
        assertEquals(20, cases.size());
        for (JsonNode c : cases) {
            ApiRequest request = CODEC.decode(form(c.get("form").asText()));
            assertEquals(c.get("action").asText(), request.action());
            assertEquals(c.get("expected"), request.input(), c.get("action").asText());
        }
    }
}
