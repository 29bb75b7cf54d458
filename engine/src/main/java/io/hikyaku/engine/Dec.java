package io.hikyaku.engine;

import io.hikyaku.engine.store.StoreException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Reader matching {@link Enc}. */
final class Dec {

    private final ByteBuffer in;

    Dec(byte[] value) {
        this.in = ByteBuffer.wrap(value);
    }

    /** Reads and checks the version byte. */
    static Dec of(byte[] value, int expectedVersion, String what) {
        Dec d = new Dec(value);
        int v = d.u8();
        if (v != expectedVersion) {
            throw new StoreException("unsupported " + what + " format version " + v);
        }
        return d;
    }

    /** True while bytes remain (an optional tail a newer writer added). */
    boolean hasMore() {
        return in.hasRemaining();
    }

    int u8() {
        return in.get() & 0xff;
    }

    boolean bool() {
        return u8() != 0;
    }

    int i32() {
        return in.getInt();
    }

    long i64() {
        return in.getLong();
    }

    byte[] bytes() {
        int n = i32();
        if (n < 0) {
            return null;
        }
        byte[] b = new byte[n];
        in.get(b);
        return b;
    }

    String str() {
        int n = i32();
        if (n < 0) {
            return null;
        }
        if (n > in.remaining()) {
            throw new java.nio.BufferUnderflowException();
        }
        int at = in.position();
        String s = new String(in.array(), at, n, StandardCharsets.UTF_8); // straight from the value: no copy first
        in.position(at + n);
        return s;
    }

    Integer nullableInt() {
        return bool() ? i32() : null;
    }

    List<String> strList() {
        int n = i32();
        if (n < 0) {
            return null;
        }
        List<String> list = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            list.add(str());
        }
        return list;
    }

    Map<String, String> strMap() {
        int n = i32();
        Map<String, String> m = new TreeMap<>();
        for (int i = 0; i < n; i++) {
            m.put(str(), str());
        }
        return m;
    }
}
