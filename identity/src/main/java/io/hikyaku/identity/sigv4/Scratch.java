package io.hikyaku.identity.sigv4;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * One thread's working memory for verifying a signature: the canonical request and string to sign
 * are built in one reused builder, hashed from one reused byte buffer into reused digests, and the
 * MAC stays initialized with the last signing key (a client signs every request of a day with the
 * same one), so a verification allocates next to nothing.
 */
final class Scratch {

    private static final ThreadLocal<Scratch> PER_THREAD = ThreadLocal.withInitial(Scratch::new);
    /** A builder or buffer grown past this by an unusual request is dropped after use, not kept. */
    private static final int KEEP_LIMIT = 16 * 1024;

    final StringBuilder text = new StringBuilder(1024);
    /** SHA-256 of the body. */
    final byte[] bodyHash = new byte[32];
    /** SHA-256 of the canonical request. */
    final byte[] canonicalHash = new byte[32];
    /** HMAC of the string to sign: the expected signature. */
    final byte[] signature = new byte[32];
    private byte[] bytes = new byte[1024];
    private char[] chars = new char[1024];
    private int encodedLength;
    private final MessageDigest sha256;
    private final Mac hmac;
    private byte[] hmacKey;

    private Scratch() {
        try {
            sha256 = MessageDigest.getInstance("SHA-256");
            hmac = Mac.getInstance("HmacSHA256");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** This thread's scratch, its builder emptied. */
    static Scratch get() {
        Scratch s = PER_THREAD.get();
        if (s.text.capacity() > KEEP_LIMIT) {
            s = new Scratch();
            PER_THREAD.set(s);
        }
        s.text.setLength(0);
        return s;
    }

    /** SHA-256 of {@code data} into {@code out} (32 bytes). */
    void sha256(byte[] data, byte[] out) {
        sha256.reset();
        sha256.update(data);
        digestInto(out);
    }

    /** SHA-256 of the UTF-8 bytes of text[from, length) into {@code out}. */
    void sha256(int from, byte[] out) {
        sha256.reset();
        byte[] encoded = ascii(from);
        if (encoded != null) {
            sha256.update(encoded, 0, encodedLength);
        } else {
            sha256.update(text.substring(from).getBytes(StandardCharsets.UTF_8)); // not ASCII: the general way
        }
        digestInto(out);
    }

    /** HMAC-SHA256 under {@code key} of the UTF-8 bytes of text[from, length) into {@link #signature}. */
    void hmac(byte[] key, int from) {
        try {
            if (key != hmacKey) {
                hmac.init(new SecretKeySpec(key, "HmacSHA256"));
                hmacKey = key;
            }
            hmac.reset();
            byte[] encoded = ascii(from);
            if (encoded != null) {
                hmac.update(encoded, 0, encodedLength);
            } else {
                hmac.update(text.substring(from).getBytes(StandardCharsets.UTF_8));
            }
            hmac.doFinal(signature, 0);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private void digestInto(byte[] out) {
        try {
            sha256.digest(out, 0, out.length);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * text[from, length) as bytes when it is all ASCII (its UTF-8 then), in {@link #bytes} (or, past
     * the size kept, a new array), their count in {@link #encodedLength}; null when it is not ASCII.
     */
    private byte[] ascii(int from) {
        int n = text.length() - from;
        if (chars.length < n) {
            chars = new char[Math.max(n, chars.length * 2)];
        }
        text.getChars(from, from + n, chars, 0); // one bulk copy: charAt per char costs more than the hashing
        byte[] out = bytes;
        if (out.length < n) {
            out = new byte[Math.max(n, out.length * 2)];
            if (out.length <= KEEP_LIMIT) {
                bytes = out;
            }
        }
        char[] in = chars;
        int high = 0;
        for (int i = 0; i < n; i++) {
            char c = in[i];
            high |= c;
            out[i] = (byte) c;
        }
        if (chars.length > KEEP_LIMIT) {
            chars = new char[1024];
        }
        if (high >= 0x80) {
            return null;
        }
        encodedLength = n;
        return out;
    }

    /** Appends the lower-hex form of {@code bytes}. */
    static void appendHex(StringBuilder out, byte[] bytes) {
        for (byte b : bytes) {
            out.append(HEX[(b >> 4) & 0xf]).append(HEX[b & 0xf]);
        }
    }

    /** Whether {@code text} is exactly the lower-hex form of {@code bytes} (the x-amz-content-sha256 check). */
    static boolean isHexOf(String text, byte[] bytes) {
        if (text.length() != bytes.length * 2) {
            return false;
        }
        for (int i = 0; i < bytes.length; i++) {
            if (text.charAt(2 * i) != HEX[(bytes[i] >> 4) & 0xf] || text.charAt(2 * i + 1) != HEX[bytes[i] & 0xf]) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether {@code sent}, with A-Z read as a-z, is the lower-hex form of {@code bytes}, in time that
     * does not depend on where they differ (a signature compared must not leak how much of it is right).
     */
    static boolean signatureMatches(String sent, byte[] bytes) {
        if (sent.length() != bytes.length * 2) {
            return false;
        }
        int diff = 0;
        for (int i = 0; i < sent.length(); i++) {
            char c = sent.charAt(i);
            if (c >= 'A' && c <= 'Z') {
                c = (char) (c + ('a' - 'A'));
            }
            byte b = bytes[i >> 1];
            char expected = HEX[(i & 1) == 0 ? (b >> 4) & 0xf : b & 0xf];
            diff |= c ^ expected;
        }
        return diff == 0;
    }

    private static final char[] HEX = "0123456789abcdef".toCharArray();
}
