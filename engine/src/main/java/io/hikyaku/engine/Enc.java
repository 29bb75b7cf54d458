package io.hikyaku.engine;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Compact binary writer for store values: big-endian ints and longs, nullable length-prefixed
 * strings (UTF-8) and byte arrays, maps and lists (the DataOutputStream layout). Writes straight
 * into one growing array: no streams, and ASCII strings are copied without an intermediate array.
 */
final class Enc {

    private byte[] buf;
    private int len;

    private Enc(int capacity) {
        buf = new byte[Math.max(16, capacity)];
    }

    /** Starts a value with its format version byte. */
    static Enc version(int version) {
        return version(version, 64);
    }

    /** Same, with room for about {@code capacity} bytes. */
    static Enc version(int version, int capacity) {
        return new Enc(capacity).u8(version);
    }

    /** Bytes {@link #str} writes for {@code v}: a length prefix and its UTF-8 form. */
    static int strSize(String v) {
        return v == null ? 4 : 4 + Utf8.encodedLength(v);
    }

    /** Bytes {@link #bytes} writes for {@code v}. */
    static int bytesSize(byte[] v) {
        return v == null ? 4 : 4 + v.length;
    }

    private void room(int n) {
        if (len + n > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + n));
        }
    }

    Enc u8(int v) {
        room(1);
        buf[len++] = (byte) v;
        return this;
    }

    Enc bool(boolean v) {
        return u8(v ? 1 : 0);
    }

    Enc i32(int v) {
        room(4);
        buf[len] = (byte) (v >>> 24);
        buf[len + 1] = (byte) (v >>> 16);
        buf[len + 2] = (byte) (v >>> 8);
        buf[len + 3] = (byte) v;
        len += 4;
        return this;
    }

    Enc i64(long v) {
        room(8);
        for (int i = 7; i >= 0; i--) {
            buf[len + i] = (byte) v;
            v >>>= 8;
        }
        len += 8;
        return this;
    }

    Enc bytes(byte[] v) {
        if (v == null) {
            return i32(-1);
        }
        i32(v.length);
        room(v.length);
        System.arraycopy(v, 0, buf, len, v.length);
        len += v.length;
        return this;
    }

    Enc str(String v) {
        if (v == null) {
            return i32(-1);
        }
        if (!Utf8.isAscii(v)) {
            return bytes(v.getBytes(StandardCharsets.UTF_8)); // exactly what getBytes makes, surrogates included
        }
        int n = v.length();
        i32(n);
        room(n);
        for (int i = 0; i < n; i++) {
            buf[len + i] = (byte) v.charAt(i);
        }
        len += n;
        return this;
    }

    Enc nullableInt(Integer v) {
        bool(v != null);
        return v == null ? this : i32(v);
    }

    Enc strList(List<String> v) {
        i32(v == null ? -1 : v.size());
        if (v != null) {
            v.forEach(this::str);
        }
        return this;
    }

    Enc strMap(Map<String, String> v) {
        i32(v.size());
        v.forEach((k, val) -> str(k).str(val));
        return this;
    }

    /** The value; without a copy when the capacity given to {@link #version(int, int)} was exact. */
    byte[] done() {
        return len == buf.length ? buf : Arrays.copyOf(buf, len);
    }
}
