package io.hikyaku.sns;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.Signature;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SnsSignerTest {

    @TempDir
    Path dir;

    @Test
    void theKeyIsCreatedOwnerOnlyOnceAndReusedAfterARestart() throws Exception {
        SnsSigner first = SnsSigner.loadOrCreate(dir.resolve("sns"));
        Path key = dir.resolve("sns").resolve(SnsSigner.KEY_FILE);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(key))).isEqualTo("rw-------");
        SnsSigner again = SnsSigner.loadOrCreate(dir.resolve("sns"));
        assertThat(again.publicKey()).isEqualTo(first.publicKey());
        assertThat(again.certificatePath()).isEqualTo(first.certificatePath())
                .matches("/_aws/sns/SimpleNotificationService-[0-9a-f]{32}\\.pem");
        assertThat(new String(again.certificatePem(), StandardCharsets.US_ASCII)).startsWith("-----BEGIN CERTIFICATE-----\n");
    }

    @Test
    void theServedCertificateVerifiesBothSignatureVersions() throws Exception {
        SnsSigner signer = SnsSigner.generate();
        X509Certificate cert = (X509Certificate) CertificateFactory.getInstance("X.509")
                .generateCertificate(new ByteArrayInputStream(signer.certificatePem()));
        cert.checkValidity();
        cert.verify(cert.getPublicKey()); // self-signed
        assertThat(cert.getSubjectX500Principal().getName()).isEqualTo("CN=Hikyaku SNS signing key");
        for (String[] v : new String[][] {{"1", "SHA1withRSA"}, {"2", "SHA256withRSA"}}) {
            String toSign = "Message\nhello\nMessageId\nid\nTimestamp\n2026-01-01T00:00:00.000Z\nTopicArn\narn\nType\nNotification\n";
            Signature s = Signature.getInstance(v[1]);
            s.initVerify(cert);
            s.update(toSign.getBytes(StandardCharsets.UTF_8));
            assertThat(s.verify(Base64.getDecoder().decode(signer.sign(toSign, v[0])))).as(v[1]).isTrue();
        }
    }

    @Test
    void aDamagedKeyFailsTheStart() throws Exception {
        SnsSigner.loadOrCreate(dir.resolve("sns"));
        Files.writeString(dir.resolve("sns").resolve(SnsSigner.KEY_FILE), "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> SnsSigner.loadOrCreate(dir.resolve("sns")))
                .hasMessageContaining("damaged");
    }
}
