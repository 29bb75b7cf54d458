package io.hikyaku.sns;

import io.hikyaku.protocol.HttpRequestData;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The parameters of an SNS Query request (query string, then a form body), decoded strictly: a bad percent
 * escape or bytes that are not UTF-8 refuse the request. Knows SNS's serialisation of maps
 * ({@code Attributes.entry.N.key}) and lists ({@code Tags.member.N.Key}, {@code TagKeys.member.N}).
 */
final class SnsParams {

    /** Refuses more parameters than any SNS request can carry (a batch of 10 entries with 10 attributes each). */
    static final int MAX_PARAMETERS = 2_000;

    private final Map<String, String> values;

    private SnsParams(Map<String, String> values) {
        this.values = values;
    }

    static SnsParams of(HttpRequestData request) throws SnsException {
        Map<String, String> values = new LinkedHashMap<>();
        decodeInto(request.rawQuery() == null ? new byte[0] : request.rawQuery().getBytes(StandardCharsets.UTF_8), values);
        String type = request.header("content-type");
        if (request.body().length > 0 && (type == null || type.startsWith("application/x-www-form-urlencoded"))) {
            decodeInto(request.body(), values);
        }
        return new SnsParams(values);
    }

    static SnsParams of(Map<String, String> values) {
        return new SnsParams(values);
    }

    /** The parameters under {@code prefix + "."}, with the prefix removed (a batch entry). */
    SnsParams under(String prefix) {
        Map<String, String> out = new LinkedHashMap<>();
        String p = prefix + ".";
        values.forEach((k, v) -> {
            if (k.startsWith(p)) {
                out.put(k.substring(p.length()), v);
            }
        });
        return new SnsParams(out);
    }

    boolean isEmpty() {
        return values.isEmpty();
    }

    String get(String name) {
        return values.get(name);
    }

    /** A required parameter, refused as SNS's model validation words it when absent. */
    String required(String name) throws SnsException {
        String v = values.get(name);
        if (v == null) {
            String member = Character.toLowerCase(name.charAt(0)) + name.substring(1);
            throw new SnsException("ValidationError", 400, "1 validation error detected: Value null at '" + member
                    + "' failed to satisfy constraint: Member must not be null");
        }
        return v;
    }

    /** {@code prefix.entry.N.key / .value} as a map (N from 1, stopping at the first gap). */
    Map<String, String> map(String prefix) {
        Map<String, String> out = new TreeMap<>();
        for (int i = 1; ; i++) {
            String key = values.get(prefix + ".entry." + i + ".key");
            if (key == null) {
                return out;
            }
            out.put(key, values.getOrDefault(prefix + ".entry." + i + ".value", ""));
        }
    }

    /** {@code Tags.member.N.Key / .Value}. */
    Map<String, String> tags(String prefix) {
        Map<String, String> out = new TreeMap<>();
        for (int i = 1; ; i++) {
            String key = values.get(prefix + ".member." + i + ".Key");
            if (key == null) {
                return out;
            }
            out.put(key, values.getOrDefault(prefix + ".member." + i + ".Value", ""));
        }
    }

    /** {@code prefix.member.N}. */
    List<String> list(String prefix) {
        List<String> out = new ArrayList<>();
        for (int i = 1; ; i++) {
            String v = values.get(prefix + ".member." + i);
            if (v == null) {
                return out;
            }
            out.add(v);
        }
    }

    private static void decodeInto(byte[] form, Map<String, String> into) throws SnsException {
        int start = 0;
        for (int i = 0; i <= form.length; i++) {
            if (i == form.length || form[i] == '&') {
                if (i > start) {
                    int eq = start;
                    while (eq < i && form[eq] != '=') {
                        eq++;
                    }
                    String name = decode(form, start, eq);
                    if (!name.isEmpty()) {
                        into.put(name, eq < i ? decode(form, eq + 1, i) : "");
                        if (into.size() > MAX_PARAMETERS) {
                            throw new SnsException("InvalidParameter", 400, "Invalid parameter: too many parameters");
                        }
                    }
                }
                start = i + 1;
            }
        }
    }

    private static String decode(byte[] form, int from, int to) throws SnsException {
        ByteArrayOutputStream out = new ByteArrayOutputStream(to - from);
        for (int i = from; i < to; i++) {
            byte b = form[i];
            if (b == '+') {
                out.write(' ');
            } else if (b == '%') {
                int hi = i + 2 < to ? Character.digit(form[i + 1], 16) : -1;
                int lo = i + 2 < to ? Character.digit(form[i + 2], 16) : -1;
                if (hi < 0 || lo < 0) {
                    throw new SnsException("MalformedQueryString", 400, "The query string is malformed");
                }
                out.write(hi * 16 + lo);
                i += 2;
            } else {
                out.write(b);
            }
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(out.toByteArray())).toString();
        } catch (CharacterCodingException e) {
            throw new SnsException("MalformedQueryString", 400, "The query string is not UTF-8");
        }
    }
}
