package io.hikyaku.identity.sigv4;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hikyaku.identity.Credential;
import io.hikyaku.identity.Principal;
import io.hikyaku.identity.Secret;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The SigV4 vectors of {@code sigv4-vectors.json}: requests of our own signed by botocore's signer
 * (made by {@code identity/tools/make-sigv4-vectors.py}).
 */
final class Vectors {

    record Vector(String name, SignedRequest request, String accessKeyId, String secret, String sessionToken,
                  String amzDate, String canonicalRequest, String stringToSign, String signature) {

        Instant signedAt() {
            return LocalDateTime.parse(amzDate, DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'")).toInstant(ZoneOffset.UTC);
        }

        boolean presigned() {
            return request.rawQuery().contains("X-Amz-Signature=");
        }

        /** The key this vector was signed with, as a long-term key or (with a token) a session valid for an hour. */
        Credential credential() {
            Principal p = Principal.accountRoot("111111111111");
            return sessionToken == null ? Credential.longTerm(accessKeyId, new Secret(secret), p)
                    : new Credential(accessKeyId, new Secret(secret), p, new Secret(sessionToken), signedAt().plusSeconds(3600));
        }

        CredentialLookup lookup() {
            Credential c = credential();
            return id -> id.equals(c.accessKeyId()) ? Optional.of(c) : Optional.empty();
        }

        Vector with(SignedRequest changed) {
            return new Vector(name, changed, accessKeyId, secret, sessionToken, amzDate, canonicalRequest, stringToSign, signature);
        }
    }

    static List<Vector> all() {
        try (InputStream in = Vectors.class.getResourceAsStream("/sigv4-vectors.json")) {
            JsonNode root = new ObjectMapper().readTree(in);
            List<Vector> out = new ArrayList<>();
            for (JsonNode v : root) {
                List<Map.Entry<String, String>> headers = new ArrayList<>();
                for (JsonNode h : v.get("headers")) {
                    headers.add(Map.entry(h.get(0).asText(), h.get(1).asText()));
                }
                SignedRequest request = new SignedRequest(v.get("method").asText(), v.get("rawPath").asText(),
                        v.get("rawQuery").asText(), headers, v.get("body").asText().getBytes(StandardCharsets.UTF_8));
                out.add(new Vector(v.get("name").asText(), request, v.get("accessKeyId").asText(), v.get("secret").asText(),
                        v.get("sessionToken").isNull() ? null : v.get("sessionToken").asText(), v.get("amzDate").asText(),
                        v.get("canonicalRequest").asText(), v.get("stringToSign").asText(), v.get("signature").asText()));
            }
            return out;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    static Vector named(String name) {
        return all().stream().filter(v -> v.name().equals(name)).findFirst().orElseThrow();
    }

    static Map<String, Vector> byName() {
        Map<String, Vector> m = new LinkedHashMap<>();
        all().forEach(v -> m.put(v.name(), v));
        return m;
    }

    private Vectors() {}
}
