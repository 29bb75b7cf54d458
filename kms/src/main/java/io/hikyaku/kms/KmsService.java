package io.hikyaku.kms;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.function.IntFunction;

/**
 * KMS as the server runs it: the master key, the durable key state (command log under {@code <data>/kms/}, or
 * memory), the API and the data-key door for SSE.
 */
public final class KmsService implements AutoCloseable {

    private final KmsKeys keys;
    private final KmsApi api;
    private final DataKeys dataKeys;

    private KmsService(KmsKeys keys, KeyCrypto crypto) {
        this.keys = keys;
        this.api = new KmsApi(crypto);
        this.dataKeys = new DataKeys(crypto);
    }

    /**
     * @param dataDir       the server's data dir, or null for {@code --storage memory} (an ephemeral master key)
     * @param masterKeyFile the operator's master key file, or null for {@code <dataDir>/kms/master.key}
     */
    public static KmsService start(Path dataDir, Path masterKeyFile, String region, Clock clock) {
        return start(dataDir, masterKeyFile, dataDir == null && masterKeyFile == null ? null
                : previousMasterKeyFileFromEnvironment(), region, clock);
    }

    /**
     * @param previousMasterKeyFile the master key being replaced (or null for {@code <dataDir>/kms/master.key.previous}
     *                              when it exists): materials under it are wrapped again under the master key
     */
    public static KmsService start(Path dataDir, Path masterKeyFile, Path previousMasterKeyFile, String region, Clock clock) {
        return start(dataDir, masterKeyFile, previousMasterKeyFile,
                dataDir == null ? KmsJournal.memory() : KmsCommandLog.inDataDir(dataDir), region, clock);
    }

    /** @param journal where the keys are kept: the data dir's file, or a cluster's replicated service log */
    public static KmsService start(Path dataDir, Path masterKeyFile, Path previousMasterKeyFile, KmsJournal journal,
                                   String region, Clock clock) {
        SecureRandom random = new SecureRandom();
        IntFunction<byte[]> bytes = n -> {
            byte[] b = new byte[n];
            random.nextBytes(b);
            return b;
        };
        try {
            MasterKey master = dataDir == null && masterKeyFile == null ? MasterKey.ephemeral(random)
                    : MasterKey.open(dataDir, masterKeyFile, random);
            KmsKeys keys = KmsKeys.open(journal, region);
            MasterKey previous = dataDir == null && previousMasterKeyFile == null ? null
                    : MasterKey.previous(dataDir, previousMasterKeyFile);
            if (previous != null) {
                int n = MasterKeyRotation.rewrap(keys, master, previous, clock.millis(), bytes);
                System.getLogger(KmsService.class.getName()).log(System.Logger.Level.INFO, n == 0
                        ? "KMS: every key material is under the master key already; the previous master key is not needed"
                        : "KMS: wrapped " + n + " key materials again under the new master key; the previous master key is no longer needed");
            }
            keys.read(s -> {
                s.checkMaterials(master); // the wrong master key fails the start, not the first Decrypt
                return null;
            });
            return new KmsService(keys, new KeyCrypto(keys, master, clock, bytes));
        } catch (IOException e) {
            throw new UncheckedIOException("KMS keys could not be loaded from " + dataDir, e);
        } catch (KmsException e) {
            throw new IllegalStateException(e.getMessage());
        }
    }

    /**
     * Cluster mode: every node must open the same master key, so it must be given ({@code HIKYAKU_MASTER_KEY_FILE})
     * rather than made per node in its data dir.
     *
     * @throws IllegalStateException naming what is missing or unreadable
     */
    public static void checkSharedMasterKey(Path masterKeyFile) {
        if (masterKeyFile == null) {
            throw new IllegalStateException("cluster mode needs " + MasterKey.ENV + ": every node must hold the same KMS "
                    + "master key (a file of 64 hex digits, e.g. openssl rand -hex 32), since any node may become the leader "
                    + "and open the keys (docs/operations.md \"Cluster\")");
        }
        try {
            MasterKey.open(null, masterKeyFile, new SecureRandom());
        } catch (IOException e) {
            throw new IllegalStateException(MasterKey.ENV + ": " + e.getMessage());
        }
    }

    /** The master key being replaced: {@code HIKYAKU_PREVIOUS_MASTER_KEY_FILE} when set, else null. */
    public static Path previousMasterKeyFileFromEnvironment() {
        String env = System.getenv(MasterKey.PREVIOUS_ENV);
        return env == null || env.isBlank() ? null : Path.of(env);
    }

    /** The master key file to use: {@code HIKYAKU_MASTER_KEY_FILE} when set, else null (the data dir's). */
    public static Path masterKeyFileFromEnvironment() {
        String env = System.getenv(MasterKey.ENV);
        return env == null || env.isBlank() ? null : Path.of(env);
    }

    public KmsApi api() {
        return api;
    }

    public DataKeys dataKeys() {
        return dataKeys;
    }

    public String digest() {
        return keys.digest();
    }

    @Override
    public void close() {
        try {
            keys.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
