package io.hikyaku.protocol;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.Iterator;
import java.util.Map;

/**
 * Writes a response tree as UTF-8 JSON straight into a {@link ResponseBuffer}, the same bytes
 * Jackson's generator writes with {@link JsonCodec#MAPPER}'s settings (checked byte for byte in
 * JsonCodecWriteTest), without a generator and its per-object write contexts: every response goes
 * through here. Covers the node types results are built from (objects, arrays, text, int, long,
 * boolean, null); for anything else it answers false and the caller uses Jackson.
 */
final class TreeWriter {

    private static final byte[] HEX = "0123456789ABCDEF".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private static final byte[] TRUE = {'t', 'r', 'u', 'e'};
    private static final byte[] FALSE = {'f', 'a', 'l', 's', 'e'};
    private static final byte[] NULL = {'n', 'u', 'l', 'l'};
    /** The short escape of an ASCII character, 0 when written as is, 'u' for \\u00XX. */
    private static final byte[] ESCAPES = new byte[128];

    static {
        for (int c = 0; c < 0x20; c++) {
            ESCAPES[c] = 'u';
        }
        ESCAPES['"'] = '"';
        ESCAPES['\\'] = '\\';
        ESCAPES['\b'] = 'b';
        ESCAPES['\t'] = 't';
        ESCAPES['\f'] = 'f';
        ESCAPES['\n'] = 'n';
        ESCAPES['\r'] = 'r';
    }

    private TreeWriter() {}

    /** Writes {@code node}; false (with {@code out} in an unspecified state) when it holds a type not covered here. */
    static boolean write(JsonNode node, ResponseBuffer out) {
        switch (node.getNodeType()) {
            case OBJECT -> {
                out.write('{');
                boolean first = true;
                for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> field = it.next();
                    if (!first) {
                        out.write(',');
                    }
                    first = false;
                    string(field.getKey(), out);
                    out.write(':');
                    if (!write(field.getValue(), out)) {
                        return false;
                    }
                }
                out.write('}');
            }
            case ARRAY -> {
                out.write('[');
                for (int i = 0; i < node.size(); i++) {
                    if (i > 0) {
                        out.write(',');
                    }
                    if (!write(node.get(i), out)) {
                        return false;
                    }
                }
                out.write(']');
            }
            case STRING -> string(node.textValue(), out);
            case BOOLEAN -> bytes(node.booleanValue() ? TRUE : FALSE, out);
            case NULL -> bytes(NULL, out);
            case NUMBER -> {
                if (!node.isInt() && !node.isLong()) {
                    return false;
                }
                ascii(Long.toString(node.longValue()), out);
            }
            default -> {
                return false;
            }
        }
        return true;
    }

    private static void bytes(byte[] b, ResponseBuffer out) {
        out.write(b, 0, b.length);
    }

    private static void ascii(String s, ResponseBuffer out) {
        for (int i = 0; i < s.length(); i++) {
            out.write(s.charAt(i));
        }
    }

    /** Characters encoded per reservation: at most 6 bytes each, so a large body never reserves much beyond itself. */
    private static final int CHUNK = 1024;

    private static void string(String s, ResponseBuffer out) {
        out.write('"');
        int n = s.length();
        int i = 0;
        while (i < n) {
            int end = Math.min(n, i + CHUNK);
            byte[] b = out.reserve((end - i) * 6 + 6); // + a surrogate pair straddling the chunk's end
            int p = out.size();
            for (; i < end; i++) {
                char c = s.charAt(i);
                if (c < 0x80) {
                    byte escape = ESCAPES[c];
                    if (escape == 0) {
                        b[p++] = (byte) c;
                    } else if (escape == 'u') {
                        p = unicodeEscape(c, b, p);
                    } else {
                        b[p++] = '\\';
                        b[p++] = escape;
                    }
                } else if (c < 0x800) {
                    b[p++] = (byte) (0xc0 | (c >> 6));
                    b[p++] = (byte) (0x80 | (c & 0x3f));
                } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
                    int cp = Character.toCodePoint(c, s.charAt(++i));
                    b[p++] = (byte) (0xf0 | (cp >> 18));
                    b[p++] = (byte) (0x80 | ((cp >> 12) & 0x3f));
                    b[p++] = (byte) (0x80 | ((cp >> 6) & 0x3f));
                    b[p++] = (byte) (0x80 | (cp & 0x3f));
                } else if (Character.isSurrogate(c)) {
                    p = unicodeEscape(c, b, p); // a lone surrogate has no UTF-8 form
                } else {
                    b[p++] = (byte) (0xe0 | (c >> 12));
                    b[p++] = (byte) (0x80 | ((c >> 6) & 0x3f));
                    b[p++] = (byte) (0x80 | (c & 0x3f));
                }
            }
            out.size(p);
        }
        out.write('"');
    }

    private static int unicodeEscape(char c, byte[] b, int p) {
        b[p++] = '\\';
        b[p++] = 'u';
        b[p++] = HEX[(c >> 12) & 0xf];
        b[p++] = HEX[(c >> 8) & 0xf];
        b[p++] = HEX[(c >> 4) & 0xf];
        b[p++] = HEX[c & 0xf];
        return p;
    }
}
