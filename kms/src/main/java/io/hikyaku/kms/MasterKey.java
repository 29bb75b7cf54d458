package io.hikyaku.kms;

import io.hikyaku.engine.store.OwnerOnly;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.HexFormat;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The root of trust: a 256-bit AES key that wraps every key's material (AES-256-GCM, a fresh IV per wrap).
 * Kept in {@code <data>/kms/master.key} (created at first start, 0600, 64 hex digits) or in a file named by
 * {@code HIKYAKU_MASTER_KEY_FILE}. The command log holds only wrapped material: without this key nothing decrypts.
 */
public final class MasterKey {

    static final String FILE_NAME = "master.key";
    /** Where the master key being replaced is put for one start ({@link MasterKeyRotation}). */
    static final String PREVIOUS_FILE_NAME = "master.key.previous";
    public static final String ENV = "HIKYAKU_MASTER_KEY_FILE";
    public static final String PREVIOUS_ENV = "HIKYAKU_PREVIOUS_MASTER_KEY_FILE";
    private static final byte[] WRAP_AAD = "hikyaku-kms-material-v1".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    private final SecretKeySpec key;

    private MasterKey(byte[] raw) {
        if (raw.length != 32) {
            throw new IllegalArgumentException("a master key is 32 bytes, not " + raw.length);
        }
        this.key = new SecretKeySpec(raw, "AES");
    }

    /** A key for {@code --storage memory}: lives and dies with the process, like the keys it wraps. */
    public static MasterKey ephemeral(SecureRandom random) {
        byte[] raw = new byte[32];
        random.nextBytes(raw);
        return new MasterKey(raw);
    }

    /**
     * @param file the master key file given by the operator, or null for {@code <dataDir>/kms/master.key},
     *             which is created (0600) when missing
     */
    public static MasterKey open(Path dataDir, Path file, SecureRandom random) throws IOException {
        Path path = file != null ? file : dataDir.resolve("kms").resolve(FILE_NAME);
        if (!Files.exists(path)) {
            if (file != null) {
                throw new IOException("the master key file " + path + " does not exist");
            }
            OwnerOnly.createDirectories(path.getParent());
            byte[] raw = new byte[32];
            random.nextBytes(raw);
            Path tmp = path.resolveSibling(FILE_NAME + ".tmp");
            Files.deleteIfExists(tmp);
            Files.createFile(tmp, OwnerOnly.file());
            Files.writeString(tmp, HexFormat.of().formatHex(raw) + "\n");
            try (var ch = java.nio.channels.FileChannel.open(tmp, java.nio.file.StandardOpenOption.WRITE)) {
                ch.force(true);
            }
            Files.move(tmp, path, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            Arrays.fill(raw, (byte) 0);
        }
        return read(path);
    }

    /**
     * The master key being replaced, or null: the file {@code file} names (it must exist), else
     * {@code <dataDir>/kms/master.key.previous} when there is one.
     */
    public static MasterKey previous(Path dataDir, Path file) throws IOException {
        if (file != null) {
            if (!Files.exists(file)) {
                throw new IOException("the previous master key file " + file + " does not exist");
            }
            return read(file);
        }
        Path path = dataDir == null ? null : dataDir.resolve("kms").resolve(PREVIOUS_FILE_NAME);
        return path != null && Files.exists(path) ? read(path) : null;
    }

    private static MasterKey read(Path path) throws IOException {
        String text = Files.readString(path).trim();
        try {
            return new MasterKey(HexFormat.of().parseHex(text));
        } catch (IllegalArgumentException e) {
            throw new IOException("the master key file " + path + " does not hold 64 hex digits (32 bytes)");
        }
    }

    /** @return iv(12) || AES-GCM(material) */
    byte[] wrap(byte[] material, byte[] iv) {
        try {
            Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
            c.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(128, iv));
            c.updateAAD(WRAP_AAD);
            byte[] sealed = c.doFinal(material);
            byte[] out = new byte[iv.length + sealed.length];
            System.arraycopy(iv, 0, out, 0, iv.length);
            System.arraycopy(sealed, 0, out, iv.length, sealed.length);
            return out;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is not available", e);
        }
    }

    /** @throws IllegalStateException when the material was wrapped by another master key (or damaged) */
    byte[] unwrap(byte[] wrapped) {
        try {
            Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
            c.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(128, wrapped, 0, 12));
            c.updateAAD(WRAP_AAD);
            return c.doFinal(wrapped, 12, wrapped.length - 12);
        } catch (javax.crypto.AEADBadTagException e) {
            throw new IllegalStateException("key material does not open with this master key (another master key, or damage)");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is not available", e);
        }
    }
}
