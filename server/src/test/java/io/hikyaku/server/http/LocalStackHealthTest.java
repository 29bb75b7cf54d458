package io.hikyaku.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hikyaku.protocol.HttpResponseData;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import org.junit.jupiter.api.Test;

/** LocalStack's health document: only the services served, "running", and 503 "stopping" during shutdown. */
class LocalStackHealthTest {

    private static LinkedHashMap<String, Boolean> clusterNode() {
        LinkedHashMap<String, Boolean> served = new LinkedHashMap<>();
        served.put("kms", false);
        served.put("sns", false);
        served.put("sqs", true);
        served.put("sts", true);
        return served;
    }

    @Test
    void listsOnlyTheServicesServed() throws Exception {
        HttpResponseData r = LocalStackHealth.response(clusterNode(), true, "0.1.0");
        assertThat(r.status()).isEqualTo(200);
        JsonNode body = new ObjectMapper().readTree(new String(r.body(), StandardCharsets.UTF_8));
        assertThat(body.get("services").fieldNames()).toIterable().containsExactly("sqs", "sts");
        assertThat(body.at("/services/sqs").asText()).isEqualTo("running");
        assertThat(body.get("version").asText()).isEqualTo("0.1.0");
    }

    @Test
    void stoppingIs503() throws Exception {
        HttpResponseData r = LocalStackHealth.response(clusterNode(), false, "0.1.0");
        assertThat(r.status()).isEqualTo(503);
        assertThat(new ObjectMapper().readTree(r.body()).at("/services/sqs").asText()).isEqualTo("stopping");
    }
}
