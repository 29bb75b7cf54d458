package io.hikyaku.bench.client;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * An HTTP answer as a whole tree, for the calls outside the hot path (CreateQueue,
 * GetQueueAttributes...): status and the JSON body (an empty object when there was none).
 */
public record SqsResponse(int status, JsonNode body) {
    public boolean ok() {
        return status == 200;
    }

    @Override
    public String toString() {
        return status + " " + body;
    }
}
