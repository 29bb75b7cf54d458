package io.hikyaku.identity;

import java.security.SecureRandom;

/**
 * Fresh random key material: access key ids as AWS shapes them ({@code AKIA}/{@code ASIA} and 16
 * upper-case base32 characters) and 40-character secrets from the base64 alphabet.
 */
public final class NewKeys {

    private static final char[] SECRET_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".toCharArray();
    private final SecureRandom random;

    public NewKeys(SecureRandom random) {
        this.random = random;
    }

    public NewKeys() {
        this(new SecureRandom());
    }

    /** {@code AKIA} + 16 base32 characters: a long-term key id. */
    public String longTermKeyId() {
        return "AKIA" + UniqueIds.base32(bytes(10), 16);
    }

    /** {@code ASIA} + 16 base32 characters: a temporary (STS) key id. */
    public String temporaryKeyId() {
        return "ASIA" + UniqueIds.base32(bytes(10), 16);
    }

    /** 40 random characters of the base64 alphabet (240 bits). */
    public String secret() {
        return randomText(40);
    }

    /** An opaque session token: 200 random characters of the base64 alphabet. */
    public String sessionToken() {
        return randomText(200);
    }

    private String randomText(int length) {
        char[] out = new char[length];
        for (int i = 0; i < length; i++) {
            out[i] = SECRET_CHARS[random.nextInt(SECRET_CHARS.length)];
        }
        return new String(out);
    }

    private byte[] bytes(int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }
}
