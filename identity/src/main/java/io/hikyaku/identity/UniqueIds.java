package io.hikyaku.identity;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * IAM-style unique ids ({@code AIDA...} users, {@code AROA...} roles: a 4-letter prefix and 17
 * upper-case base32 characters). Derived from the account and name, so an id stays the same across
 * restarts without being stored (AWS draws them at random at creation; a configured identity has
 * no creation event, and a stable id is what policies and logs that name it need).
 */
public final class UniqueIds {

    private static final char[] BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".toCharArray();

    private UniqueIds() {}

    public static String user(String accountId, String name) {
        return "AIDA" + base32(digest("user\n" + accountId + "\n" + name), 17);
    }

    public static String role(String accountId, String name) {
        return "AROA" + base32(digest("role\n" + accountId + "\n" + name), 17);
    }

    static String base32(byte[] bytes, int chars) {
        StringBuilder out = new StringBuilder(chars);
        int buffer = 0;
        int bits = 0;
        for (int i = 0; out.length() < chars; ) {
            if (bits < 5) {
                buffer = (buffer << 8) | (bytes[i++ % bytes.length] & 0xff);
                bits += 8;
            }
            out.append(BASE32[(buffer >>> (bits - 5)) & 31]);
            bits -= 5;
        }
        return out.toString();
    }

    private static byte[] digest(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
