package io.hikyaku.bench.client;

import java.util.Arrays;

/**
 * A minimal JSON writer straight to UTF-8 bytes, for request bodies: building a Jackson tree and
 * serialising it cost more client CPU per request than the rest of a send. Output matches
 * Jackson's compact form (same escapes, members in call order). Commas are placed automatically.
 */
final class JsonWriter {
    private static final byte[] HEX = "0123456789ABCDEF".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    private byte[] buf;
    private int len;
    /** A value or member written just before needs a comma ahead of the next one. */
    private boolean needComma;

    JsonWriter(int capacity) {
        buf = new byte[Math.max(capacity, 16)];
    }

    JsonWriter beginObject() {
        comma();
        put('{');
        needComma = false;
        return this;
    }

    JsonWriter endObject() {
        put('}');
        needComma = true;
        return this;
    }

    JsonWriter beginArray() {
        comma();
        put('[');
        needComma = false;
        return this;
    }

    JsonWriter endArray() {
        put(']');
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
        ensure(s.length() + 2);
        put('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
                put(c); // the common case: printable ASCII
            } else if (c < 0x80) {
                escape(c);
            } else if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                utf8(Character.toCodePoint(c, s.charAt(++i)));
            } else if (Character.isSurrogate(c)) {
                put('?'); // unpaired surrogate: what String.getBytes(UTF_8) writes too
            } else {
                utf8(c);
            }
        }
        put('"');
        needComma = true;
        return this;
    }

    int length() {
        return len;
    }

    byte[] toByteArray() {
        return Arrays.copyOf(buf, len);
    }

    /** Copies the bytes written so far into dst at off. */
    void copyTo(byte[] dst, int off) {
        System.arraycopy(buf, 0, dst, off, len);
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

    private void utf8(int cp) {
        if (cp < 0x800) {
            putByte(0xC0 | cp >> 6);
        } else if (cp < 0x10000) {
            putByte(0xE0 | cp >> 12);
            putByte(0x80 | (cp >> 6 & 0x3F));
        } else {
            putByte(0xF0 | cp >> 18);
            putByte(0x80 | (cp >> 12 & 0x3F));
            putByte(0x80 | (cp >> 6 & 0x3F));
        }
        putByte(0x80 | (cp & 0x3F));
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
