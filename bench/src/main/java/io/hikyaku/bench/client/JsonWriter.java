package io.hikyaku.bench.client;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A minimal JSON writer straight to UTF-8 bytes, for request bodies: building a Jackson tree and
 * serialising it cost more client CPU per request than the rest of a send. Output matches
 * Jackson's compact form (same escapes, members in call order). Commas are placed automatically.
 */
final class JsonWriter {
    private static final byte[] HEX = "0123456789ABCDEF".getBytes(StandardCharsets.US_ASCII);

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private byte[] buf;
    private int len;
    /** A value or member written just before needs a comma ahead of the next one. */
    private boolean needComma;

    JsonWriter(int capacity) {
        buf = new byte[Math.max(capacity, 16)];
    }

    JsonWriter beginObject() {
        return open('{');
    }

    JsonWriter endObject() {
        return close('}');
    }

    JsonWriter beginArray() {
        return open('[');
    }

    JsonWriter endArray() {
        return close(']');
    }

    private JsonWriter open(char bracket) {
        comma();
        put(bracket);
        needComma = false;
        return this;
    }

    private JsonWriter close(char bracket) {
        put(bracket);
        needComma = true;
        return this;
    }

    JsonWriter name(String name) {
        value(name);
        put(':');
        needComma = false;
        return this;
    }

    JsonWriter field(String name, String value) {
        return name(name).value(value);
    }

    JsonWriter field(String name, long value) {
        return name(name).value(value);
    }

    JsonWriter value(long v) {
        comma();
        String s = Long.toString(v);
        for (int i = 0; i < s.length(); i++) {
            put(s.charAt(i));
        }
        needComma = true;
        return this;
    }

    /** A string value; null is written as null. */
    JsonWriter value(String s) {
        comma();
        if (s == null) {
            put('n');
            put('u');
            put('l');
            put('l');
            needComma = true;
            return this;
        }
        // String.getBytes is an intrinsic copy for the usual ASCII string, and UTF-8 leaves every
        // byte of a multi-byte character >= 0x80 (unpaired surrogates become '?'), so only bytes
        // below 0x20, '"' and '\\' need escaping; runs between them are copied as they are.
        byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
        ensure(utf8.length + 2);
        buf[len++] = '"';
        int from = 0;
        for (int i = nextEscape(utf8, 0); i < utf8.length; i = nextEscape(utf8, i + 1)) {
            append(utf8, from, i);
            escape((char) utf8[i]);
            from = i + 1;
        }
        append(utf8, from, utf8.length);
        put('"');
        needComma = true;
        return this;
    }

    /** The index of the first byte at or after i that needs escaping, or b.length. */
    private static int nextEscape(byte[] b, int i) {
        while (i < b.length) {
            if (i + 8 <= b.length && !anyEscape((long) LONGS.get(b, i))) {
                i += 8; // eight clean bytes at once: the usual case
            } else if (needsEscape(b[i])) {
                return i;
            } else {
                i++;
            }
        }
        return b.length;
    }

    /**
     * Whether any of the eight bytes is below 0x20, '"' or '\\' (the SWAR "has less" / "has zero
     * byte" tests, exact as a yes/no answer; bytes >= 0x80 never match, as in needsEscape).
     */
    private static boolean anyEscape(long x) {
        long control = (x - 0x2020202020202020L) & ~x;
        long q = x ^ 0x2222222222222222L;
        long quote = (q - 0x0101010101010101L) & ~q;
        long s = x ^ 0x5C5C5C5C5C5C5C5CL;
        long backslash = (s - 0x0101010101010101L) & ~s;
        return ((control | quote | backslash) & 0x8080808080808080L) != 0;
    }

    private static boolean needsEscape(byte b) {
        return (b >= 0 && b < 0x20) || b == '"' || b == '\\';
    }

    private void append(byte[] src, int from, int to) {
        ensure(to - from);
        System.arraycopy(src, from, buf, len, to - from);
        len += to - from;
    }

    byte[] toByteArray() {
        return Arrays.copyOf(buf, len);
    }

    private void escape(char c) {
        put('\\');
        switch (c) {
            case '"' -> put('"');
            case '\\' -> put('\\');
            case '\b' -> put('b');
            case '\f' -> put('f');
            case '\n' -> put('n');
            case '\r' -> put('r');
            case '\t' -> put('t');
            default -> {
                put('u');
                put('0');
                put('0');
                putByte(HEX[c >> 4]);
                putByte(HEX[c & 0xF]);
            }
        }
    }

    private void comma() {
        if (needComma) {
            put(',');
        }
    }

    private void put(char c) {
        putByte(c);
    }

    private void putByte(int b) {
        if (len == buf.length) {
            ensure(1);
        }
        buf[len++] = (byte) b;
    }

    private void ensure(int more) {
        if (len + more > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + more));
        }
    }
}
