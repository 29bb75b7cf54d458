package io.hikyaku.engine;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * UTF-8 facts about message text without encoding it when it is ASCII (nearly every body is), so the
 * send path does not copy each body once more just to measure or digest it. Every answer equals what
 * {@code s.getBytes(UTF_8)} would give, lone surrogates included (they encode as one '?').
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

    /** {@code s.getBytes(UTF_8).length}. */
    public static int length(String s) {
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
