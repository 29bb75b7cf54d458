package io.hikyaku.api;

import io.hikyaku.engine.MessageAttribute;
import io.hikyaku.engine.Utf8;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Map;
import java.util.TreeMap;

/** The MD5 digests SQS returns and SDKs verify. */
final class Md5s {

    private static final char[] HEX = "0123456789abcdef".toCharArray();
    private static final byte STRING_TRANSPORT = 1;
    private static final byte BINARY_TRANSPORT = 2;

    private Md5s() {}

    /** Hex MD5 of the UTF-8 body (MD5OfMessageBody / MD5OfBody). */
    static String ofBody(String body) {
        MessageDigest md = md5();
        Utf8.update(md, body);
        return hex(md.digest());
    }

    /**
     * The standard attribute digest (MD5OfMessageAttributes, and the same over system attributes for
     * MD5OfMessageSystemAttributes): for each attribute in name order, the length-prefixed UTF-8 name,
     * the length-prefixed data type, a transport byte (1 String/Number, 2 Binary) and the
     * length-prefixed value. Null when there are no attributes (SQS then omits the field).
     */
    static String ofAttributes(Map<String, MessageAttribute> attributes) {
        if (attributes == null || attributes.isEmpty()) {
            return null;
        }
        MessageDigest md = md5();
        for (Map.Entry<String, MessageAttribute> e : new TreeMap<>(attributes).entrySet()) {
            MessageAttribute a = e.getValue();
            updateLengthPrefixed(md, e.getKey().getBytes(StandardCharsets.UTF_8));
            updateLengthPrefixed(md, a.dataType().getBytes(StandardCharsets.UTF_8));
            if (a.isBinary()) {
                md.update(BINARY_TRANSPORT);
                updateLengthPrefixed(md, a.binaryValue());
            } else {
                md.update(STRING_TRANSPORT);
                updateLengthPrefixed(md, a.stringValue().getBytes(StandardCharsets.UTF_8));
            }
        }
        return hex(md.digest());
    }

    private static void updateLengthPrefixed(MessageDigest md, byte[] bytes) {
        md.update(ByteBuffer.allocate(4).putInt(bytes.length).array());
        md.update(bytes);
    }

    /** One digest per thread: getInstance is costly on the hot send/receive path. */
    private static final ThreadLocal<MessageDigest> DIGESTS = ThreadLocal.withInitial(() -> {
        try {
            return MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("MD5 is required by the JDK", e);
        }
    });

    private static MessageDigest md5() {
        MessageDigest md = DIGESTS.get();
        md.reset();
        return md;
    }

    static String hex(byte[] bytes) {
        char[] out = new char[bytes.length * 2];
        for (int i = 0; i < bytes.length; i++) {
            out[2 * i] = HEX[(bytes[i] >> 4) & 0xF];
            out[2 * i + 1] = HEX[bytes[i] & 0xF];
        }
        return new String(out);
    }
}
