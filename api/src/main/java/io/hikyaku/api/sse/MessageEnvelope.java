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
 * {@code U+0001 "hk1:" <plaintext size> ":" base64(envelope)} ({@link SealedBody}), the message's attributes
 * travel inside it (the engine sees none). The envelope:
 * <pre>
 *   u8 mode (1 SSE-SQS, 2 SSE-KMS) | u16 n, queue ARN (the encryption context) | u16 n, wrapped data key
 *   | 12-byte nonce | segments
 * </pre>
 * The plaintext (body and attributes, {@link #payload}) is cut into segments of {@value #SEGMENT} bytes, each
 * sealed with AES-256-GCM (128-bit tag) under the data key, with the nonce's first 4 bytes XORed with the segment
 * index (the message nonce is a data key's 4-byte prefix and 8-byte use counter, so every segment of every message
 * under one key has its own nonce) and {@code header | index | last?} as additional data: no segment can be dropped, reordered or moved to
 * another message's header. Segments rather than one operation because OpenJDK 17's GCM slows by 10-40x on one
 * operation over about 32 KiB (aws-sns-kms-scheduler.md 2.4). The wrapped data key names the KMS key (and its
 * material version) it was made under, so a message opens whatever the queue's key or mode is now.
 */
public final class MessageEnvelope {

    static final int SEGMENT = 32 * 1024;
    static final int NONCE = 12;
    static final int TAG = 16;
    static final byte SQS = 1;
    static final byte KMS = 2;
    private static final String HEAD = SealedBody.PREFIX + "1:";

    private static final ThreadLocal<Cipher> GCM = ThreadLocal.withInitial(() -> {
        try {
            return Cipher.getInstance("AES/GCM/NoPadding");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is not available", e);
        }
    });

    /** A parsed envelope: what opening it needs. */
    public record Sealed(byte mode, String queueArn, byte[] wrappedKey, byte[] envelope, int headerLength) {
        public boolean sqsOwned() {
            return mode == SQS;
        }
    }

    /** The plaintext of a message. */
    public record Payload(String body, Map<String, MessageAttribute> attributes) { }

    private MessageEnvelope() {
    }

    /** Seals a body and its attributes (null or empty: none) under {@code key}, with a fresh {@code nonce}. */
    static String seal(byte mode, String queueArn, byte[] wrappedKey, SecretKey key, byte[] nonce, long countedSize,
                       String body, Map<String, MessageAttribute> attributes) {
        byte[] plain = payload(body, attributes);
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
        return HEAD + countedSize + ":" + Base64.getEncoder().encodeToString(out);
    }

    /** Reads the header of a sealed body (null when it is not a body this version sealed). */
    public static Sealed parse(String body) {
        if (!body.startsWith(HEAD)) {
            return null;
        }
        int colon = body.indexOf(':', HEAD.length());
        if (colon < 0) {
            return null;
        }
        byte[] env;
        try {
            env = Base64.getDecoder().decode(body.substring(colon + 1));
            ByteBuffer b = ByteBuffer.wrap(env);
            byte mode = b.get();
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
    static byte[] payload(String body, Map<String, MessageAttribute> attributes) {
        byte[] text = body.getBytes(StandardCharsets.UTF_8);
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
