package io.hikyaku.engine;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * UTF-8 facts about message text without encoding it when it is ASCII (nearly every body is), so the
 * send path does not copy each body once more just to measure or digest it. {@link #encodedLength} and
 * {@link #update} agree with {@code s.getBytes(UTF_8)}, lone surrogates included (they encode as one '?').
 */
public final class Utf8 {

    /** ASCII bodies up to this many characters are digested from a per-thread array. */
    private static final int SCRATCH_CHARS = 64 * 1024;
    private static final ThreadLocal<byte[]> SCRATCH = ThreadLocal.withInitial(() -> new byte[SCRATCH_CHARS]);

    private Utf8() {}

    public static boolean isAscii(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) >= 0x80) {
                return false;
            }
        }
        return true;
    }

    /**
     * UTF-8 byte length without allocating, 0 for null; a lone surrogate counts 3 bytes (its code
     * unit's own encoding). The engine's size limits use this.
     */
    static int length(String s) {
        if (s == null) {
            return 0;
        }
        int n = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                n += 1;
            } else if (c < 0x800) {
                n += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                n += 4;
                i++;
            } else {
                n += 3;
            }
        }
        return n;
    }

    /** {@code s.getBytes(UTF_8).length} (a lone surrogate is one byte, the '?' it becomes), ASCII without a copy. */
    public static int encodedLength(String s) {
        return isAscii(s) ? s.length() : s.getBytes(StandardCharsets.UTF_8).length;
    }

    /** Feeds {@code s}'s UTF-8 bytes to {@code md}. */
    public static void update(MessageDigest md, String s) {
        int n = s.length();
        if (n <= SCRATCH_CHARS && isAscii(s)) { // ASCII is its own UTF-8: no new array
            byte[] scratch = SCRATCH.get();
            for (int i = 0; i < n; i++) {
                scratch[i] = (byte) s.charAt(i);
            }
            md.update(scratch, 0, n);
        } else {
            md.update(s.getBytes(StandardCharsets.UTF_8));
        }
    }
}
