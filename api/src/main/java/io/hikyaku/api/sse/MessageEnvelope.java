package io.hikyaku.api.sse;

import io.hikyaku.engine.MessageAttribute;
import io.hikyaku.engine.SealedBody;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;

/**
 * The stored form of an encrypted message: the body field holds
 * {@code U+0001 "hk" <version> ":" <plaintext size> ":" base64(envelope)} ({@link SealedBody}), the message's
 * attributes travel inside it (the engine sees none). The envelope:
 * <pre>
 *   u8 mode | u16 n, queue ARN (the encryption context) | u16 n, data key reference | 12-byte nonce | segments
 * </pre>
 * Modes: 1 SSE-SQS with a data key wrapped by the SQS owned key (version 1 only), 2 SSE-KMS with a data key wrapped
 * by the queue's KMS key, 3 SSE-SQS with a derived data key whose reference is 20 bytes (version 2, what new
 * SSE-SQS messages use: a wrapped key is ~150 bytes of every message). Version 1 bodies (modes 1 and 2) still open.
 * The plaintext (body and attributes, {@link #payload}) is cut into segments of {@value #SEGMENT} bytes, each
 * sealed with AES-256-GCM (128-bit tag) under the data key, with the nonce's first 4 bytes XORed with the segment
 * index (the message nonce is a data key's 4-byte prefix and 8-byte use counter, so every segment of every message
 * under one key has its own nonce) and {@code header | index | last?} as additional data: no segment can be dropped, reordered or moved to
 * another message's header. Segments rather than one operation because OpenJDK 17's GCM slows by 10-40x on one
 * operation over about 32 KiB (aws-sns-kms-scheduler.md 2.4). The reference names the key (and its material
 * version) the data key was made under, so a message opens whatever the queue's key or mode is now.
 *
 * <p>Base64 stays (version 2 too): the store writes a body as UTF-8, where raw bytes kept in a Latin-1 string
 * would take two bytes for every byte above 0x7F and the encoder's slow path on every write.
 */
public final class MessageEnvelope {

    static final int SEGMENT = 32 * 1024;
    static final int NONCE = 12;
    static final int TAG = 16;
    /** SSE-SQS, a data key wrapped by the SQS owned key (version 1 messages). */
    static final byte SQS = 1;
    /** SSE-KMS, a data key wrapped by the queue's KMS key. */
    static final byte KMS = 2;
    /** SSE-SQS, a data key derived from the SQS owned key, named by a 20-byte reference (version 2). */
    static final byte SQS_DERIVED = 3;
    /** What new messages are sealed as. */
    static final int VERSION = 2;
    private static final String HEAD_V1 = SealedBody.PREFIX + "1:";
    private static final String HEAD_V2 = SealedBody.PREFIX + "2:";

    private static final ThreadLocal<Cipher> GCM = ThreadLocal.withInitial(() -> {
        try {
            return Cipher.getInstance("AES/GCM/NoPadding");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is not available", e);
        }
    });

    /** A parsed envelope: what opening it needs. */
    public record Sealed(byte mode, String queueArn, byte[] wrappedKey, byte[] envelope, int headerLength) {
        /**
         * What names this message's data key, for caching it: the header without the nonce (mode, queue ARN and
         * reference), unique to a data key.
         */
        java.nio.ByteBuffer dataKeyName() {
            return java.nio.ByteBuffer.wrap(java.util.Arrays.copyOf(envelope, headerLength - NONCE));
        }
    }

    /** The plaintext of a message. */
    public record Payload(String body, Map<String, MessageAttribute> attributes) { }

    private MessageEnvelope() {
    }

    /**
     * Seals a body and its attributes (null or empty: none) under {@code key}, with a fresh {@code nonce}, as
     * {@link #VERSION}; {@code attributesSize} is what the attributes count towards MaximumMessageSize (the body's
     * UTF-8 length is added here).
     */
    static String seal(byte mode, String queueArn, byte[] wrappedKey, SecretKey key, byte[] nonce,
                       long attributesSize, String body, Map<String, MessageAttribute> attributes) {
        return seal(VERSION, mode, queueArn, wrappedKey, key, nonce, attributesSize, body, attributes);
    }

    /** {@link #seal} as a given version (1 for tests of messages stored by earlier releases). */
    static String seal(int version, byte mode, String queueArn, byte[] wrappedKey, SecretKey key, byte[] nonce,
                       long attributesSize, String body, Map<String, MessageAttribute> attributes) {
        byte[] text = body.getBytes(StandardCharsets.UTF_8);
        byte[] plain = payload(text, attributes);
        byte[] arn = queueArn.getBytes(StandardCharsets.UTF_8);
        int header = 1 + 2 + arn.length + 2 + wrappedKey.length + NONCE;
        int segments = Math.max(1, (plain.length + SEGMENT - 1) / SEGMENT);
        byte[] out = new byte[header + plain.length + segments * TAG];
        ByteBuffer b = ByteBuffer.wrap(out);
        b.put(mode).putShort((short) arn.length).put(arn).putShort((short) wrappedKey.length).put(wrappedKey).put(nonce);
        Cipher c = GCM.get();
        int at = header;
        try {
            for (int i = 0; i < segments; i++) {
                int from = i * SEGMENT;
                int len = Math.min(SEGMENT, plain.length - from);
                c.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG * 8, segmentNonce(nonce, i)));
                c.updateAAD(out, 0, header);
                c.updateAAD(segmentAad(i, i == segments - 1));
                at += c.doFinal(plain, from, len, out, at);
            }
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM failed", e);
        }
        return (version == 1 ? HEAD_V1 : HEAD_V2) + (text.length + attributesSize) + ":"
                + Base64.getEncoder().encodeToString(out);
    }

    /** Reads the header of a sealed body (null when it is not a body this version sealed). */
    public static Sealed parse(String body) {
        boolean v2 = body.startsWith(HEAD_V2);
        if (!v2 && !body.startsWith(HEAD_V1)) {
            return null;
        }
        int colon = body.indexOf(':', HEAD_V1.length());
        if (colon < 0) {
            return null;
        }
        byte[] env;
        try {
            byte[] text = body.getBytes(StandardCharsets.ISO_8859_1); // base64 is ASCII: one plain copy
            ByteBuffer decoded = Base64.getDecoder().decode(ByteBuffer.wrap(text, colon + 1, text.length - colon - 1));
            env = decoded.array().length == decoded.remaining() ? decoded.array()
                    : java.util.Arrays.copyOf(decoded.array(), decoded.remaining());
            ByteBuffer b = ByteBuffer.wrap(env);
            byte mode = b.get();
            if (v2 ? mode != KMS && mode != SQS_DERIVED : mode != KMS && mode != SQS) {
                return null;
            }
            byte[] arn = new byte[b.getShort() & 0xffff];
            b.get(arn);
            byte[] wrapped = new byte[b.getShort() & 0xffff];
            b.get(wrapped);
            int header = b.position() + NONCE;
            if (header > env.length) {
                return null;
            }
            return new Sealed(mode, new String(arn, StandardCharsets.UTF_8), wrapped, env, header);
        } catch (RuntimeException damaged) {
            return null;
        }
    }

    /** Opens a sealed message with its data key; null when it does not open (another key, damage). */
    static Payload open(Sealed s, SecretKey key) {
        byte[] env = s.envelope();
        int header = s.headerLength();
        byte[] nonce = java.util.Arrays.copyOfRange(env, header - NONCE, header);
        int sealedBytes = env.length - header;
        int segments = Math.max(1, (sealedBytes + SEGMENT + TAG - 1) / (SEGMENT + TAG));
        int plainLength = sealedBytes - segments * TAG;
        if (plainLength < 0) {
            return null;
        }
        byte[] plain = new byte[plainLength];
        Cipher c = GCM.get();
        int at = header;
        int written = 0;
        try {
            for (int i = 0; i < segments; i++) {
                int len = Math.min(SEGMENT + TAG, env.length - at);
                c.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG * 8, segmentNonce(nonce, i)));
                c.updateAAD(env, 0, header);
                c.updateAAD(segmentAad(i, i == segments - 1));
                written += c.doFinal(env, at, len, plain, written);
                at += len;
            }
            return parsePayload(plain);
        } catch (AEADBadTagException | RuntimeException bad) {
            return null;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM failed", e);
        }
    }

    private static byte[] segmentNonce(byte[] nonce, int index) {
        byte[] n = nonce.clone(); // the first 4 bytes: a data key's nonce prefix, the last 8 its use counter
        n[0] ^= (byte) (index >>> 24);
        n[1] ^= (byte) (index >>> 16);
        n[2] ^= (byte) (index >>> 8);
        n[3] ^= (byte) index;
        return n;
    }

    private static byte[] segmentAad(int index, boolean last) {
        return new byte[] {(byte) (index >>> 24), (byte) (index >>> 16), (byte) (index >>> 8), (byte) index,
                (byte) (last ? 1 : 0)};
    }

    /** {@code i32 n, body UTF-8 | i32 count | per attribute: name, type, u8 binary?, value} (lengths i32). */
    static byte[] payload(byte[] text, Map<String, MessageAttribute> attributes) {
        int size = 4 + text.length + 4;
        Map<String, MessageAttribute> attrs = attributes == null ? Map.of() : attributes;
        java.util.List<byte[]> parts = new java.util.ArrayList<>(attrs.size() * 3);
        for (Map.Entry<String, MessageAttribute> e : attrs.entrySet()) {
            MessageAttribute a = e.getValue();
            byte[] name = e.getKey().getBytes(StandardCharsets.UTF_8);
            byte[] type = a.dataType().getBytes(StandardCharsets.UTF_8);
            byte[] value = a.isBinary() ? a.binaryValue() : a.stringValue().getBytes(StandardCharsets.UTF_8);
            parts.add(name);
            parts.add(type);
            parts.add(value);
            size += 12 + 1 + name.length + type.length + value.length;
        }
        ByteBuffer b = ByteBuffer.allocate(size);
        b.putInt(text.length).put(text).putInt(attrs.size());
        int i = 0;
        for (MessageAttribute a : attrs.values()) {
            b.putInt(parts.get(i).length).put(parts.get(i));
            b.putInt(parts.get(i + 1).length).put(parts.get(i + 1));
            b.put((byte) (a.isBinary() ? 1 : 0));
            b.putInt(parts.get(i + 2).length).put(parts.get(i + 2));
            i += 3;
        }
        return b.array();
    }

    private static Payload parsePayload(byte[] plain) {
        ByteBuffer b = ByteBuffer.wrap(plain);
        String body = text(b);
        int n = b.getInt();
        Map<String, MessageAttribute> attrs = n == 0 ? null : new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            String name = text(b);
            String type = text(b);
            boolean binary = b.get() == 1;
            byte[] value = new byte[b.getInt()];
            b.get(value);
            attrs.put(name, binary ? new MessageAttribute(type, null, value)
                    : new MessageAttribute(type, new String(value, StandardCharsets.UTF_8), null));
        }
        return new Payload(body, attrs);
    }

    private static String text(ByteBuffer b) {
        int n = b.getInt();
        String s = new String(b.array(), b.position(), n, StandardCharsets.UTF_8);
        b.position(b.position() + n);
        return s;
    }
}
