package io.hikyaku.sns;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;

/**
 * Signs notifications and confirmations with SignatureVersion 1 (SHA1withRSA) or 2 (SHA256withRSA) with the
 * installation's RSA key, whose self-signed certificate the server serves at {@link #certificatePath()} (the
 * {@code SigningCertURL}). With a data dir the key ({@code sns/signing-key.pem}, PKCS#8, mode 0600) and the
 * certificate ({@code sns/signing-cert.pem}) are created at first start and reused after, so subscribers that
 * cache the certificate keep verifying across restarts; {@code --storage memory} uses a key per process.
 */
final class SnsSigner {

    static final String CERTIFICATE_PREFIX = "/_aws/sns/SimpleNotificationService-";
    static final String KEY_FILE = "signing-key.pem";
    static final String CERTIFICATE_FILE = "signing-cert.pem";
    private static final Duration VALIDITY = Duration.ofDays(3650);

    private final KeyPair keys;
    private final byte[] certificatePem;
    private final String certificatePath;

    private SnsSigner(KeyPair keys, byte[] certificateDer) {
        this.keys = keys;
        this.certificatePem = pem("CERTIFICATE", certificateDer);
        this.certificatePath = CERTIFICATE_PREFIX + HexFormat.of().formatHex(sha256(certificateDer), 0, 16) + ".pem";
    }

    /** A key and certificate for this process only. */
    static SnsSigner generate() {
        try {
            KeyPair keys = newKeys();
            return new SnsSigner(keys, certificate(keys));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every JVM has RSA", e);
        }
    }

    /** The key and certificate under {@code dir}, created (key 0600) when absent. */
    static SnsSigner loadOrCreate(Path dir) throws IOException {
        Path keyFile = dir.resolve(KEY_FILE);
        Path certFile = dir.resolve(CERTIFICATE_FILE);
        try {
            if (!Files.exists(keyFile)) {
                Files.createDirectories(dir);
                KeyPair keys = newKeys();
                byte[] der = certificate(keys);
                writeOwnerOnly(keyFile, pem("PRIVATE KEY", keys.getPrivate().getEncoded()));
                Files.write(certFile, pem("CERTIFICATE", der));
                return new SnsSigner(keys, der);
            }
            PrivateKey privateKey = KeyFactory.getInstance("RSA").generatePrivate(
                    new PKCS8EncodedKeySpec(unpem(Files.readString(keyFile, StandardCharsets.US_ASCII))));
            X509Certificate cert = (X509Certificate) CertificateFactory.getInstance("X.509")
                    .generateCertificate(Files.newInputStream(certFile));
            return new SnsSigner(new KeyPair(cert.getPublicKey(), privateKey), cert.getEncoded());
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw new IOException("the SNS signing key in " + dir + " is damaged: " + e.getMessage(), e);
        }
    }

    private static void writeOwnerOnly(Path file, byte[] content) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.deleteIfExists(tmp);
        try {
            Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } catch (UnsupportedOperationException notPosix) {
            Files.createFile(tmp);
        }
        try (var ch = java.nio.channels.FileChannel.open(tmp, StandardOpenOption.WRITE)) {
            ch.write(java.nio.ByteBuffer.wrap(content));
            ch.force(true);
        }
        Files.move(tmp, file, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    private static KeyPair newKeys() throws GeneralSecurityException {
        KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
        g.initialize(2048);
        return g.generateKeyPair();
    }

    private static byte[] certificate(KeyPair keys) throws GeneralSecurityException {
        Instant now = Instant.now();
        return SelfSignedCertificate.create(keys, "Hikyaku SNS signing key",
                new BigInteger(1, sha256(keys.getPublic().getEncoded()), 0, 16), now.minus(Duration.ofDays(1)),
                now.plus(VALIDITY));
    }

    private static byte[] sha256(byte[] data) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(data);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    private static byte[] pem(String type, byte[] der) {
        return ("-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
                + "\n-----END " + type + "-----\n").getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] unpem(String text) {
        return Base64.getMimeDecoder().decode(text.replaceAll("-----[A-Z ]+-----", "").trim());
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

    PublicKey publicKey() {
        return keys.getPublic();
    }

    /** The path (on this server's endpoint) the certificate is served at; it names the certificate's hash. */
    String certificatePath() {
        return certificatePath;
    }

    byte[] certificatePem() {
        return certificatePem.clone();
    }
}
