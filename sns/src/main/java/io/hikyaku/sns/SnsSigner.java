package io.hikyaku.sns;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.util.Base64;

/**
 * Signs notifications with SignatureVersion 1 (SHA1withRSA) or 2 (SHA256withRSA). The key is generated per
 * process for now: the certificate is not yet served at {@link #CERTIFICATE_PATH} nor kept in the data dir, so
 * signatures cannot be verified yet (docs/sns.md says so).
 */
final class SnsSigner {

    static final String CERTIFICATE_PATH = "/_aws/sns/SimpleNotificationService-00000000000000000000000000000000.pem";

    private final KeyPair keys;

    SnsSigner(KeyPair keys) {
        this.keys = keys;
    }

    static SnsSigner generate() {
        try {
            KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
            g.initialize(2048);
            return new SnsSigner(g.generateKeyPair());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every JVM has RSA", e);
        }
    }

    String sign(String stringToSign, String version) {
        try {
            Signature s = Signature.getInstance("2".equals(version) ? "SHA256withRSA" : "SHA1withRSA");
            s.initSign(keys.getPrivate());
            s.update(stringToSign.getBytes(StandardCharsets.UTF_8));
            return Base64.getEncoder().encodeToString(s.sign());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("signing with our own RSA key failed", e);
        }
    }

    java.security.PublicKey publicKey() {
        return keys.getPublic();
    }
}
