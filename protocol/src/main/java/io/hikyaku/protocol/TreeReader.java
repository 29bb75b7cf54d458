package io.hikyaku.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * Reads an all-ASCII JSON request body into the same tree {@code JsonCodec.MAPPER.readTree} builds
 * (same node types, same values; checked against Jackson in JsonCodecReadTest), without a parser
 * object, a deserialization context and their per-call state: every JSON request goes through
 * here. It reads only what it is sure Jackson reads the same way: objects, arrays, strings with
 * any escape, integers of at most 18 digits, true, false, null. For anything else, valid or not
 * (a fraction or exponent, a longer integer, a duplicate key, deep nesting, a very long name or
 * string, any syntax error) it answers null and the caller asks Jackson, so errors and limits stay
 * exactly Jackson's.
 */
final class TreeReader {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    /** Deeper than this is left to Jackson (its limit, {@link JsonCodec#MAX_DEPTH}, is higher). */
    private static final int MAX_DEPTH = 32;
    private static final int MAX_INTEGER_DIGITS = 18;
    /** Longer names and values are left to Jackson, whose limits are 50,000 and 20,000,000 characters. */
    private static final int MAX_NAME_LENGTH = 1_000;
    private static final int MAX_VALUE_LENGTH = 10_000_000;
    private static final VarHandle WORDS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGHS = 0x8080808080808080L;
    private static final long QUOTES = ONES * '"';
    private static final long BACKSLASHES = ONES * '\\';
    private static final long SPACES = ONES * 0x20;

    private final byte[] in;
    private final int end;
    private int pos;
    /** Scratch for strings with escapes; reused within one read. */
    private StringBuilder escaped;

    private TreeReader(byte[] in) {
        this.in = in;
        this.end = in.length;
    }

    /** The object {@code ascii} holds, or null when it must be read by Jackson. Every byte must be below 0x80. */
    static ObjectNode readObject(byte[] ascii) {
        TreeReader r = new TreeReader(ascii);
        try {
            r.skipSpace();
            if (r.pos >= r.end || r.in[r.pos] != '{') {
                return null;
            }
            ObjectNode node = r.object(1);
            if (node == null) {
                return null;
            }
            r.skipSpace();
            return r.pos == r.end ? node : null;
        } catch (ArrayIndexOutOfBoundsException truncated) {
            return null; // input ended inside a token: Jackson reports it
        }
    }

    /** At '{'. */
    private ObjectNode object(int depth) {
        if (depth > MAX_DEPTH) {
            return null;
        }
        pos++;
        ObjectNode node = NODES.objectNode();
        skipSpace();
        if (in[pos] == '}') {
            pos++;
            return node;
        }
        while (true) {
            if (in[pos] != '"') {
                return null;
            }
            String key = string(true);
            if (key == null || key.length() > MAX_NAME_LENGTH) {
                return null;
            }
            skipSpace();
            if (in[pos] != ':') {
                return null;
            }
            pos++;
            skipSpace();
            JsonNode value = value(depth);
            if (value == null || node.putIfAbsent(key, value) != null) {
                return null; // a duplicate key: Jackson's rule decides
            }
            skipSpace();
            byte b = in[pos++];
            if (b == '}') {
                return node;
            }
            if (b != ',') {
                return null;
            }
            skipSpace();
        }
    }

    /** At '['. */
    private ArrayNode array(int depth) {
        if (depth > MAX_DEPTH) {
            return null;
        }
        pos++;
        ArrayNode node = NODES.arrayNode();
        skipSpace();
        if (in[pos] == ']') {
            pos++;
            return node;
        }
        while (true) {
            JsonNode value = value(depth);
            if (value == null) {
                return null;
            }
            node.add(value);
            skipSpace();
            byte b = in[pos++];
            if (b == ']') {
                return node;
            }
            if (b != ',') {
                return null;
            }
            skipSpace();
        }
    }

    /** A value at pos (not whitespace), or null. */
    private JsonNode value(int depth) {
        byte b = in[pos];
        switch (b) {
            case '"': {
                String s = string(false);
                return s == null || s.length() > MAX_VALUE_LENGTH ? null : NODES.textNode(s);
            }
            case '{':
                return object(depth + 1);
            case '[':
                return array(depth + 1);
            case 't':
                return literal("true") ? NODES.booleanNode(true) : null;
            case 'f':
                return literal("false") ? NODES.booleanNode(false) : null;
            case 'n':
                return literal("null") ? NODES.nullNode() : null;
            default:
                return integer();
        }
    }

    /**
     * At '"': the string's value, or null (a raw control character, a bad escape, or a surrogate
     * escape in a key: Jackson keeps lone surrogates in values but has its own rules for names).
     */
    private String string(boolean key) {
        byte[] in = this.in; // locals: the scan is every body's hot loop
        int start = pos + 1;
        int i = start;
        while (i + 8 <= end && !special((long) WORDS.get(in, i))) {
            i += 8; // eight plain characters at a time
        }
        while (true) {
            byte b = in[i];
            if (b == '"') {
                pos = i + 1;
                return new String(in, start, i - start, StandardCharsets.ISO_8859_1);
            }
            if (b == '\\' || b < 0x20) {
                break;
            }
            i++;
        }
        if (in[i] != '\\') {
            return null; // a raw control character
        }
        pos = i;
        return escapedString(start, key);
    }

    /**
     * Whether one of eight ASCII bytes is a quote, a backslash or a control character. A byte
     * equal to c leaves a zero byte in w ^ c-repeated, and (x - 0x01..) & ~x & 0x80.. is non-zero
     * exactly when x has a zero byte; (w - 0x20..) & ~w & 0x80.. likewise when a byte is below 0x20.
     */
    private static boolean special(long w) {
        long q = w ^ QUOTES;
        long b = w ^ BACKSLASHES;
        return ((((q - ONES) & ~q) | ((b - ONES) & ~b) | ((w - SPACES) & ~w)) & HIGHS) != 0;
    }

    /** The rest of a string from its first backslash at pos; {@code start} is its first character. */
    private String escapedString(int start, boolean key) {
        StringBuilder sb = escaped == null ? (escaped = new StringBuilder()) : escaped;
        sb.setLength(0);
        for (int i = start; i < pos; i++) {
            sb.append((char) in[i]);
        }
        while (true) {
            byte b = in[pos++];
            if (b == '"') {
                return sb.toString();
            }
            if (b < 0x20) {
                return null;
            }
            if (b != '\\') {
                sb.append((char) b);
                continue;
            }
            byte e = in[pos++];
            switch (e) {
                case '"', '\\', '/' -> sb.append((char) e);
                case 'b' -> sb.append('\b');
                case 'f' -> sb.append('\f');
                case 'n' -> sb.append('\n');
                case 'r' -> sb.append('\r');
                case 't' -> sb.append('\t');
                case 'u' -> {
                    int c = 0;
                    for (int k = 0; k < 4; k++) {
                        int d = Character.digit(in[pos++], 16);
                        if (d < 0) {
                            return null;
                        }
                        c = c << 4 | d;
                    }
                    if (key && Character.isSurrogate((char) c)) {
                        return null;
                    }
                    sb.append((char) c); // in a value a lone surrogate is kept, as Jackson keeps it
                }
                default -> {
                    return null;
                }
            }
        }
    }

    /** An integer of 1..18 digits without a leading zero (or a lone 0), optionally negative (not -0), or null. */
    private JsonNode integer() {
        boolean negative = in[pos] == '-';
        int start = negative ? pos + 1 : pos;
        int i = start;
        long value = 0;
        while (i < end && in[i] >= '0' && in[i] <= '9') {
            value = value * 10 + (in[i] - '0');
            i++;
        }
        int digits = i - start;
        if (digits == 0 || digits > MAX_INTEGER_DIGITS || (in[start] == '0' && (digits > 1 || negative))) {
            return null;
        }
        if (i < end && !isDelimiter(in[i])) {
            return null; // a fraction, an exponent or a stray character
        }
        pos = i;
        long v = negative ? -value : value;
        return v == (int) v ? NODES.numberNode((int) v) : NODES.numberNode(v);
    }

    /** Whether {@code word} is at pos, followed by a delimiter; moves past it. */
    private boolean literal(String word) {
        int n = word.length();
        if (pos + n > end) {
            return false;
        }
        for (int k = 0; k < n; k++) {
            if (in[pos + k] != word.charAt(k)) {
                return false;
            }
        }
        if (pos + n < end && !isDelimiter(in[pos + n])) {
            return false;
        }
        pos += n;
        return true;
    }

    private static boolean isDelimiter(byte b) {
        return b == ',' || b == '}' || b == ']' || isSpace(b);
    }

    private static boolean isSpace(byte b) {
        return b == ' ' || b == '\n' || b == '\r' || b == '\t';
    }

    private void skipSpace() {
        while (pos < end && isSpace(in[pos])) {
            pos++;
        }
    }
}
