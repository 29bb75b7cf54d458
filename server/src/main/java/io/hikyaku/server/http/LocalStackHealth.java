package io.hikyaku.server.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.protocol.HttpRequestData;
import io.hikyaku.protocol.HttpResponseData;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.LinkedHashMap;

/**
 * {@code GET /_localstack/health} as LocalStack answers it ({@code {"services": {"sqs": "running", ...},
 * "edition": ..., "version": ...}}), served with {@code --localstack-parity} so scripts and tools that poll
 * LocalStack's health path work unchanged. Only the services this server really answers are listed.
 */
final class LocalStackHealth {

    static final String PATH = "/_localstack/health";
    private static final ObjectMapper JSON = new ObjectMapper();

    private LocalStackHealth() {}

    static boolean isRequest(HttpRequestData raw) {
        return raw.path().equals(PATH) && (raw.method().equals("GET") || raw.method().equals("HEAD"));
    }

    /**
     * @param services every service served, in LocalStack's names (sqs, sns, kms, ...)
     * @param serving  false while the server stops: 503 and every service "stopping"
     */
    static HttpResponseData response(LinkedHashMap<String, Boolean> services, boolean serving, String version) {
        ObjectNode body = JSON.createObjectNode();
        ObjectNode states = body.putObject("services");
        services.forEach((name, served) -> {
            if (served) {
                states.put(name, serving ? "running" : "stopping");
            }
        });
        body.put("edition", "hikyaku");
        body.put("version", version);
        return new HttpResponseData(serving ? 200 : 503, Map.of("content-type", "application/json"),
                body.toString().getBytes(StandardCharsets.UTF_8));
    }
}
