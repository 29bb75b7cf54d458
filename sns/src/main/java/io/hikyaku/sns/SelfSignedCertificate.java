package io.hikyaku.sns;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.Signature;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * A minimal X.509 v3 certificate (DER) for the signing key, signed by itself with SHA256withRSA: serial, issuer and
 * subject {@code CN=<name>}, validity, the public key; no extensions. The JDK has no public API to create one, and
 * this is all a subscriber needs to read the public key from the {@code SigningCertURL}.
 */
final class SelfSignedCertificate {

    private static final byte[] SHA256_WITH_RSA = {0x2a, (byte) 0x86, 0x48, (byte) 0x86, (byte) 0xf7, 0x0d, 0x01, 0x01, 0x0b};
    private static final byte[] COMMON_NAME = {0x55, 0x04, 0x03};
    private static final DateTimeFormatter UTC_TIME = DateTimeFormatter.ofPattern("yyMMddHHmmss'Z'").withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter GENERALIZED_TIME = DateTimeFormatter.ofPattern("yyyyMMddHHmmss'Z'").withZone(ZoneOffset.UTC);

    private SelfSignedCertificate() {
    }

    static byte[] create(KeyPair keys, String commonName, BigInteger serial, Instant notBefore, Instant notAfter)
            throws GeneralSecurityException {
        byte[] algorithm = tlv(0x30, concat(tlv(0x06, SHA256_WITH_RSA), new byte[] {0x05, 0x00}));
        byte[] name = tlv(0x30, tlv(0x31, tlv(0x30, concat(tlv(0x06, COMMON_NAME),
                tlv(0x0c, commonName.getBytes(StandardCharsets.UTF_8))))));
        byte[] validity = tlv(0x30, concat(time(notBefore), time(notAfter)));
        byte[] tbs = tlv(0x30, concat(
                tlv(0xa0, tlv(0x02, new byte[] {2})), // version 3
                tlv(0x02, serial.toByteArray()),
                algorithm, name, validity, name,
                keys.getPublic().getEncoded())); // already a SubjectPublicKeyInfo
        Signature s = Signature.getInstance("SHA256withRSA");
        s.initSign(keys.getPrivate());
        s.update(tbs);
        byte[] signature = s.sign();
        return tlv(0x30, concat(tbs, algorithm, tlv(0x03, concat(new byte[] {0}, signature))));
    }

    private static byte[] time(Instant t) {
        int year = t.atZone(ZoneOffset.UTC).getYear();
        return year < 2050 ? tlv(0x17, UTC_TIME.format(t).getBytes(StandardCharsets.US_ASCII))
                : tlv(0x18, GENERALIZED_TIME.format(t).getBytes(StandardCharsets.US_ASCII));
    }

    private static byte[] tlv(int tag, byte[] value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(tag);
        int n = value.length;
        if (n < 0x80) {
            out.write(n);
        } else {
            byte[] len = BigInteger.valueOf(n).toByteArray();
            int skip = len[0] == 0 ? 1 : 0;
            out.write(0x80 | (len.length - skip));
            out.write(len, skip, len.length - skip);
        }
        out.writeBytes(value);
        return out.toByteArray();
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }
}
