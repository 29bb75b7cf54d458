package io.hikyaku.engine;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/** Compact binary writer for store values (DataOutputStream with nullable strings and maps). */
final class Enc {

    private final ByteArrayOutputStream bytes;
    private final DataOutputStream out;

    private Enc(int capacity) {
        bytes = new ByteArrayOutputStream(capacity);
        out = new DataOutputStream(bytes);
    }

    /** Starts a value with its format version byte. */
    static Enc version(int version) {
        return version(version, 64);
    }

    /** Same, with room for about {@code capacity} bytes. */
    static Enc version(int version, int capacity) {
        return new Enc(capacity).u8(version);
    }

    Enc u8(int v) {
        try {
            out.writeByte(v);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    Enc bool(boolean v) {
        return u8(v ? 1 : 0);
    }

    Enc i32(int v) {
        try {
            out.writeInt(v);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    Enc i64(long v) {
        try {
            out.writeLong(v);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    /** Nullable byte array: length -1 for null. */
    Enc bytes(byte[] v) {
        if (v == null) {
            return i32(-1);
        }
        i32(v.length);
        try {
            out.write(v);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    /** Nullable string as UTF-8. */
    Enc str(String v) {
        return bytes(v == null ? null : v.getBytes(StandardCharsets.UTF_8));
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

    byte[] done() {
        return bytes.toByteArray();
    }
}
