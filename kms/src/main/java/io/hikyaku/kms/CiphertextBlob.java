package io.hikyaku.kms;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Map;
import java.util.TreeMap;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Hikyaku's ciphertext blob, version 1: {@code "HK" 0x01 | u16 length | key ARN (UTF-8) | u32 material version |
 * IV (12) | AES-256-GCM ciphertext and 16-byte tag}. The header and the encryption context (sorted by key, each
 * key and value length-prefixed) are the additional authenticated data, so a blob opened with another context,
 * or with its header changed, fails. The blob names its key, so Decrypt needs no KeyId.
 */
record CiphertextBlob(String keyArn, int materialVersion, byte[] header, byte[] iv, byte[] sealed) {

    static final int IV_BYTES = 12;
    private static final int TAG_BITS = 128;
    private static final byte VERSION = 1;

    static byte[] seal(byte[] material, String keyArn, int materialVersion, byte[] iv, byte[] plaintext,
                       Map<String, String> context) {
        byte[] arn = keyArn.getBytes(StandardCharsets.UTF_8);
        ByteBuffer header = ByteBuffer.allocate(3 + 2 + arn.length + 4);
        header.put((byte) 'H').put((byte) 'K').put(VERSION).putShort((short) arn.length).put(arn).putInt(materialVersion);
        byte[] head = header.array();
        try {
            Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
            c.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(material, "AES"), new GCMParameterSpec(TAG_BITS, iv));
            c.updateAAD(head);
            c.updateAAD(contextBytes(context));
            byte[] sealed = c.doFinal(plaintext);
            return ByteBuffer.allocate(head.length + iv.length + sealed.length).put(head).put(iv).put(sealed).array();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is not available", e);
        }
    }

    /** @throws KmsException InvalidCiphertextException when the bytes are not a blob of this format */
    static CiphertextBlob parse(byte[] blob) throws KmsException {
        try {
            ByteBuffer b = ByteBuffer.wrap(blob);
            if (b.get() != 'H' || b.get() != 'K' || b.get() != VERSION) {
                throw KmsException.invalidCiphertext();
            }
            int arnLength = b.getShort() & 0xffff;
            byte[] arn = new byte[arnLength];
            b.get(arn);
            int version = b.getInt();
            byte[] head = java.util.Arrays.copyOf(blob, b.position());
            byte[] iv = new byte[IV_BYTES];
            b.get(iv);
            byte[] sealed = new byte[b.remaining()];
            if (sealed.length < TAG_BITS / 8 || version < 1) {
                throw KmsException.invalidCiphertext();
            }
            b.get(sealed);
            return new CiphertextBlob(new String(arn, StandardCharsets.UTF_8), version, head, iv, sealed);
        } catch (java.nio.BufferUnderflowException e) {
            throw KmsException.invalidCiphertext();
        }
    }

    /** @throws KmsException InvalidCiphertextException when the context (or anything) differs */
    byte[] open(byte[] material, Map<String, String> context) throws KmsException {
        try {
            Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
            c.init(Cipher.DECRYPT_MODE, new SecretKeySpec(material, "AES"), new GCMParameterSpec(TAG_BITS, iv));
            c.updateAAD(header);
            c.updateAAD(contextBytes(context));
            return c.doFinal(sealed);
        } catch (javax.crypto.AEADBadTagException e) {
            throw KmsException.invalidCiphertext();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is not available", e);
        }
    }

    static byte[] contextBytes(Map<String, String> context) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        if (context != null) {
            for (Map.Entry<String, String> e : new TreeMap<>(context).entrySet()) {
                write(out, e.getKey());
                write(out, e.getValue());
            }
        }
        return out.toByteArray();
    }

    private static void write(ByteArrayOutputStream out, String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        out.writeBytes(ByteBuffer.allocate(4).putInt(b.length).array());
        out.writeBytes(b);
    }
}
