package io.hikyaku.identity.sigv4;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The canonical request of SigV4, built from a request as received: method, canonical URI,
 * canonical query string, canonical headers, signed headers, payload hash, one per line.
 */
public final class Canonical {

    private Canonical() {}

    /**
     * The canonical request text.
     *
     * @param signedHeaders lower-case names, sorted, as the client listed them
     * @param payloadHash   lower-hex SHA-256 of the body (or the x-amz-content-sha256 value)
     * @param presigned     true to leave X-Amz-Signature out of the query
     */
    public static String request(SignedRequest request, List<String> signedHeaders, String payloadHash, boolean presigned) {
        StringBuilder out = new StringBuilder(256);
        appendRequest(out, request, signedHeaders, String.join(";", signedHeaders), presigned);
        return out.append(payloadHash).toString();
    }

    /**
     * Appends the canonical request up to its last line, the payload hash, which the caller appends
     * (the verifier writes it from the body's digest, without a String).
     *
     * @param signedHeaderLine {@code signedHeaders} joined with ';'
     */
    static void appendRequest(StringBuilder out, SignedRequest request, List<String> signedHeaders, String signedHeaderLine,
                              boolean presigned) {
        out.append(request.method()).append('\n')
                .append(uri(request.rawPath())).append('\n')
                .append(query(request.rawQuery(), presigned)).append('\n');
        appendHeaders(out, request, signedHeaders);
        out.append('\n').append(signedHeaderLine).append('\n');
    }

    /**
     * The canonical URI of a non-S3 service: dot segments removed, runs of '/' collapsed, a trailing
     * '/' kept, then the (still percent-encoded) path encoded once more with '/' kept, as SDKs do
     * ("double encoding"). An empty path is {@code /}.
     */
    public static String uri(String rawPath) {
        if ("/".equals(rawPath)) {
            return "/"; // the path of every JSON-protocol request
        }
        String normalized = removeDotSegments(rawPath == null ? "" : rawPath);
        return normalized.isEmpty() ? "/" : encode(normalized, true);
    }

    static String removeDotSegments(String path) {
        if (path.isEmpty()) {
            return "";
        }
        List<String> out = new ArrayList<>();
        for (String segment : path.split("/", -1)) {
            if (segment.isEmpty() || segment.equals(".")) {
                continue;
            }
            if (segment.equals("..")) {
                if (!out.isEmpty()) {
                    out.remove(out.size() - 1);
                }
            } else {
                out.add(segment);
            }
        }
        String first = path.charAt(0) == '/' ? "/" : "";
        String last = path.endsWith("/") && !out.isEmpty() ? "/" : "";
        return first + String.join("/", out) + last;
    }

    /**
     * The canonical query string: names and values decoded from the wire and encoded again the
     * RFC 3986 way (unreserved characters kept, everything else {@code %XX} upper-case, space
     * {@code %20}); sorted by name, then value; an absent value is {@code name=}.
     */
    public static String query(String rawQuery, boolean withoutSignature) {
        if (rawQuery == null || rawQuery.isEmpty()) {
            return "";
        }
        List<String[]> pairs = new ArrayList<>();
        for (String pair : rawQuery.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String name = decode(eq < 0 ? pair : pair.substring(0, eq));
            String value = eq < 0 ? "" : decode(pair.substring(eq + 1));
            if (withoutSignature && name.equals("X-Amz-Signature")) {
                continue;
            }
            pairs.add(new String[] {encode(name, false), encode(value, false)});
        }
        pairs.sort(Comparator.<String[], String>comparing(p -> p[0]).thenComparing(p -> p[1]));
        StringBuilder out = new StringBuilder();
        for (String[] p : pairs) {
            if (out.length() > 0) {
                out.append('&');
            }
            out.append(p[0]).append('=').append(p[1]);
        }
        return out.toString();
    }

    /**
     * The canonical headers block: for each signed header, {@code name:value\n}, where the value is
     * every received value of that header in arrival order, each trimmed with inner runs of
     * whitespace collapsed to one space, joined with ','. Headers an HTTP stack consumes before the
     * application sees them are re-derived as the client sent them (see {@link #derived}).
     */
    public static String headers(SignedRequest request, List<String> signedHeaders) {
        StringBuilder out = new StringBuilder();
        appendHeaders(out, request, signedHeaders);
        return out.toString();
    }

    private static void appendHeaders(StringBuilder out, SignedRequest request, List<String> signedHeaders) {
        List<Map.Entry<String, String>> lines = request.headers();
        for (String name : signedHeaders) {
            out.append(name).append(':');
            boolean any = false;
            for (Map.Entry<String, String> h : lines) { // every value in arrival order, without a list of them
                if (h.getKey().equals(name)) {
                    if (any) {
                        out.append(',');
                    }
                    appendTrimmed(out, h.getValue());
                    any = true;
                }
            }
            if (!any) {
                String derived = derived(request, name);
                if (derived != null) {
                    appendTrimmed(out, derived);
                }
            }
            out.append('\n');
        }
    }

    /**
     * The value a signed header had on the wire when the HTTP layer has removed it: the body
     * aggregator answers {@code Expect: 100-continue} and drops the header, and replaces
     * {@code Transfer-Encoding: chunked} by a Content-Length.
     */
    static String derived(SignedRequest request, String name) {
        return switch (name) {
            case "expect" -> "100-continue";
            case "transfer-encoding" -> "chunked";
            case "content-length" -> Integer.toString(request.body().length);
            default -> null;
        };
    }

    /** Trims and collapses every run of whitespace (also folded line breaks) to one space. */
    static String trimAll(String value) {
        StringBuilder out = new StringBuilder(value.length());
        appendTrimmed(out, value);
        return out.toString();
    }

    /** Appends {@link #trimAll}'s result for {@code value}. */
    static void appendTrimmed(StringBuilder out, String value) {
        if (alreadyTrimmed(value)) {
            out.append(value); // the usual case, in one copy rather than char by char
            return;
        }
        boolean started = false;
        boolean space = false;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == 0x0b) {
                space = started;
            } else {
                if (space) {
                    out.append(' ');
                    space = false;
                }
                out.append(c);
                started = true;
            }
        }
    }

    /** No whitespace but single spaces between other characters: {@link #trimAll} would change nothing. */
    private static boolean alreadyTrimmed(String value) {
        int n = value.length();
        if (n == 0) {
            return true;
        }
        if (value.charAt(0) == ' ' || value.charAt(n - 1) == ' ') {
            return false;
        }
        char previous = 0;
        for (int i = 0; i < n; i++) {
            char c = value.charAt(i);
            if (c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == 0x0b || (c == ' ' && previous == ' ')) {
                return false;
            }
            previous = c;
        }
        return true;
    }

    /** RFC 3986 encoding of UTF-8 bytes: A-Z a-z 0-9 - _ . ~ stay (and '/' if {@code keepSlash}). */
    public static String encode(String text, boolean keepSlash) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        StringBuilder out = new StringBuilder(bytes.length + 8);
        for (byte b : bytes) {
            int c = b & 0xff;
            if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')
                    || c == '-' || c == '_' || c == '.' || c == '~' || (keepSlash && c == '/')) {
                out.append((char) c);
            } else {
                out.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
            }
        }
        return out.toString();
    }

    /**
     * Percent-decoding of a query component. '+' stays '+' (SDKs write a space as %20 and sign it
     * so; a literal '+' is then signed as %2B). A malformed escape is kept as written.
     */
    static String decode(String text) {
        if (text.indexOf('%') < 0) {
            return text;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '%' && i + 2 < text.length()
                    && Character.digit(text.charAt(i + 1), 16) >= 0 && Character.digit(text.charAt(i + 2), 16) >= 0) {
                bytes.write(Character.digit(text.charAt(i + 1), 16) * 16 + Character.digit(text.charAt(i + 2), 16));
                i += 2;
            } else {
                byte[] b = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
                if (Character.isHighSurrogate(c) && i + 1 < text.length()) {
                    b = text.substring(i, i + 2).getBytes(StandardCharsets.UTF_8);
                    i++;
                }
                bytes.writeBytes(b);
            }
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    /** The string to sign: algorithm, timestamp, scope, hex(sha256(canonical request)). */
    public static String stringToSign(String amzDate, String scope, String canonicalRequest) {
        return "AWS4-HMAC-SHA256\n" + amzDate + '\n' + scope + '\n' + Hashes.sha256Hex(canonicalRequest);
    }

    /** The SigV4 signing key: HMAC chain over date, region, service and "aws4_request". */
    public static byte[] signingKey(String secret, String date, String region, String service) {
        byte[] kDate = Hashes.hmac(("AWS4" + secret).getBytes(StandardCharsets.UTF_8), date);
        byte[] kRegion = Hashes.hmac(kDate, region);
        byte[] kService = Hashes.hmac(kRegion, service);
        return Hashes.hmac(kService, "aws4_request");
    }

    /** lower-hex HMAC(signing key, string to sign). */
    public static String signature(String secret, String date, String region, String service, String stringToSign) {
        return Hashes.hex(Hashes.hmac(signingKey(secret, date, region, service), stringToSign));
    }
}
