package io.hikyaku.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.w3c.dom.Document;
import org.xml.sax.InputSource;

import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/** Builds raw requests and reads responses for the codec tests. */
final class Http {

    static final ObjectMapper JSON = new ObjectMapper();
    static final SqsProtocolCodec CODEC = new SqsProtocolCodec();

    private Http() {}

    static HttpRequestData request(String method, String path, String rawQuery, byte[] body, String... headers) {
        Map<String, String> map = new HashMap<>();
        for (int i = 0; i < headers.length; i += 2) {
            map.put(headers[i].toLowerCase(), headers[i + 1]);
        }
        return new HttpRequestData(method, path, rawQuery == null ? "" : rawQuery, map, body == null ? new byte[0] : body);
    }

    /** A Query POST to "/" with a form body. */
    static HttpRequestData form(String body) {
        return request("POST", "/", "", utf8(body), "Content-Type", "application/x-www-form-urlencoded; charset=utf-8");
    }

    /** A JSON 1.0 POST to "/". */
    static HttpRequestData json(String action, String body) {
        return request("POST", "/", "", utf8(body), "X-Amz-Target", "AmazonSQS." + action,
                "Content-Type", "application/x-amz-json-1.0");
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static String text(HttpResponseData response) {
        return new String(response.body(), StandardCharsets.UTF_8);
    }

    static JsonNode tree(String json) {
        try {
            return JSON.readTree(json);
        } catch (Exception e) {
            throw new AssertionError("bad JSON in test: " + json, e);
        }
    }

    static ObjectNode object(String json) {
        return (ObjectNode) tree(json);
    }

    static JsonNode tree(HttpResponseData response) {
        return tree(text(response));
    }

    /** Parses XML with the JDK parser (namespace aware): proves it is well formed. */
    static Document xml(HttpResponseData response) {
        return xml(response.body());
    }

    static Document xml(byte[] bytes) {
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setNamespaceAware(true);
            DocumentBuilder builder = factory.newDocumentBuilder();
            builder.setErrorHandler(null);
            return builder.parse(new InputSource(new ByteArrayInputStream(bytes)));
        } catch (Exception e) {
            throw new AssertionError("not well-formed XML: " + new String(bytes, StandardCharsets.UTF_8), e);
        }
    }

    /** The codec's answer to a request that fails to decode. */
    static HttpResponseData decodeError(HttpRequestData raw) {
        try {
            ApiRequest decoded = CODEC.decode(raw);
            throw new AssertionError("expected a decode error, got " + decoded);
        } catch (ApiException e) {
            return CODEC.encodeError(raw, null, e, "req-1");
        }
    }

    static ApiException decodeException(HttpRequestData raw) {
        try {
            ApiRequest decoded = CODEC.decode(raw);
            throw new AssertionError("expected a decode error, got " + decoded);
        } catch (ApiException e) {
            return e;
        }
    }
}
