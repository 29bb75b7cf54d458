package io.hikyaku.it.support;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;

/** Hand-made HTTP requests, for wire details the SDKs hide (and inputs they would never send). */
public final class RawHttp {
    public static final String JSON_TYPE = "application/x-amz-json-1.0";
    public static final String FORM_TYPE = "application/x-www-form-urlencoded";

    private final String endpoint;
    private final HttpClient client = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();

    public RawHttp(String endpoint) {
        this.endpoint = endpoint;
    }

    /** A status, the headers and the body decoded as UTF-8. */
    public record Response(int status, java.net.http.HttpHeaders headers, String body) {
        public String header(String name) {
            Optional<String> v = headers.firstValue(name);
            return v.orElse(null);
        }
    }

    /** An AWS JSON 1.0 call: POST / with X-Amz-Target AmazonSQS.{action}. */
    public Response json(String action, String body) {
        return send(request("/")
                .header("Content-Type", JSON_TYPE)
                .header("X-Amz-Target", "AmazonSQS." + action)
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8)));
    }

    /** A Query call: POST {path} with a form body. */
    public Response query(String path, String form) {
        return send(request(path)
                .header("Content-Type", FORM_TYPE)
                .POST(HttpRequest.BodyPublishers.ofString(form, StandardCharsets.UTF_8)));
    }

    public Response post(String path, byte[] body, String... headers) {
        HttpRequest.Builder b = request(path).POST(HttpRequest.BodyPublishers.ofByteArray(body));
        if (headers.length > 0) {
            b.headers(headers);
        }
        return send(b);
    }

    public Response get(String pathAndQuery, String... headers) {
        HttpRequest.Builder b = request(pathAndQuery).GET();
        if (headers.length > 0) {
            b.headers(headers);
        }
        return send(b);
    }

    public HttpRequest.Builder request(String pathAndQuery) {
        return HttpRequest.newBuilder(URI.create(endpoint + pathAndQuery)).timeout(Duration.ofSeconds(30));
    }

    public Response send(HttpRequest.Builder builder) {
        try {
            HttpResponse<byte[]> r = client.send(builder.build(), HttpResponse.BodyHandlers.ofByteArray());
            return new Response(r.statusCode(), r.headers(), new String(r.body(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new IllegalStateException("HTTP exchange failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** {@code k1=v1&k2=v2...} percent-encoded; arguments alternate key and value. */
    public static String form(String... keysAndValues) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            if (sb.length() > 0) {
                sb.append('&');
            }
            sb.append(enc(keysAndValues[i])).append('=').append(enc(keysAndValues[i + 1]));
        }
        return sb.toString();
    }

    public static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
