package io.hikyaku.protocol;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Decodes {@code application/x-www-form-urlencoded} text (a POST body or a query string) into
 * parameters. Strict: a bad percent escape or bytes that are not UTF-8 reject the whole request,
 * so a client never has a parameter silently changed. A repeated name keeps its last value.
 */
final class FormDecoder {

    private FormDecoder() {}

    /** Adds the parameters of {@code form} to {@code into} (later values replace earlier ones). */
    static void decodeInto(byte[] form, Map<String, String> into) {
        int start = 0;
        for (int i = 0; i <= form.length; i++) {
            if (i == form.length || form[i] == '&') {
                if (i > start) {
                    addPair(form, start, i, into);
                }
                start = i + 1;
            }
        }
    }

    private static void addPair(byte[] form, int from, int to, Map<String, String> into) {
        int eq = from;
        while (eq < to && form[eq] != '=') {
            eq++;
        }
        String name = decode(form, from, eq);
        String value = eq < to ? decode(form, eq + 1, to) : "";
        if (!name.isEmpty()) {
            into.put(name, value);
        }
    }

    private static String decode(byte[] form, int from, int to) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(to - from);
        for (int i = from; i < to; i++) {
            byte b = form[i];
            if (b == '+') {
                bytes.write(' ');
            } else if (b == '%') {
                if (i + 2 >= to) {
                    throw malformed();
                }
                int hi = Character.digit(form[i + 1], 16);
                int lo = Character.digit(form[i + 2], 16);
                if (hi < 0 || lo < 0) {
                    throw malformed();
                }
                bytes.write(hi * 16 + lo);
                i += 2;
            } else {
                bytes.write(b);
            }
        }
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes.toByteArray()))
                    .toString();
        } catch (CharacterCodingException e) {
            throw malformed();
        }
    }

    private static ApiException malformed() {
        return new ApiException("MalformedQueryString", "The request is not a valid URL-encoded UTF-8 form.");
    }
}
