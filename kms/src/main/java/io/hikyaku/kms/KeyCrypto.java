package io.hikyaku.kms;

import java.time.Clock;
import java.util.Base64;
import java.util.Map;
import java.util.function.IntFunction;
import java.util.regex.Pattern;

/**
 * What every caller of a key needs, the API and {@link DataKeys} alike: resolving a key reference (id, key ARN,
 * alias name, alias ARN) in an account, creating {@code alias/aws/sqs} on first use, and encrypting and
 * decrypting under a key's material. Reads the clock and draws random bytes here, outside the state.
 */
public final class KeyCrypto {

    public static final String SQS_MANAGED_ALIAS = "alias/aws/sqs";
    private static final Pattern UUID = Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

    final KmsKeys keys;
    final MasterKey master;
    final Clock clock;
    final IntFunction<byte[]> random;

    public KeyCrypto(KmsKeys keys, MasterKey master, Clock clock, IntFunction<byte[]> random) {
        this.keys = keys;
        this.master = master;
        this.clock = clock;
        this.random = random;
    }

    /** What a key reference resolves to: the key (as a snapshot of what crypto needs) or a refusal. */
    record Resolved(String keyId, String arn, String account, String state, int version, String wrapped) { }

    /**
     * What the service clock makes due: deletes the keys whose window has ended and rotates the keys whose next
     * rotation date has passed (logged commands, so replicas and replays agree).
     */
    void applyDueChanges() throws KmsException {
        long now = clock.millis();
        keys.write(s -> s.dueForDeletion(now).isEmpty() ? null : KmsCommand.of("DeleteDueKeys", null, null, now));
        for (String keyId : keys.read(s -> s.dueForRotation(now))) {
            String material = newWrappedMaterial();
            keys.write(s -> {
                KmsKey k = s.key(keyId);
                return k == null || !KeyRotations.due(k, now) ? null
                        : new KmsCommand("RotateKeyAutomatically", k.account, keyId, null, now, material, null, null, null, 0, null, null);
            });
        }
    }

    /** Fresh key material, wrapped by the master key, base64: what a CreateKey or rotation command carries. */
    String newWrappedMaterial() {
        byte[] material = random.apply(32);
        try {
            return Base64.getEncoder().encodeToString(master.wrap(material, random.apply(CiphertextBlob.IV_BYTES)));
        } finally {
            java.util.Arrays.fill(material, (byte) 0);
        }
    }

    /** Creates the AWS managed key behind {@code alias/aws/sqs} in {@code account} when the reference names it. */
    void ensureManaged(String account, String reference) throws KmsException {
        boolean named = SQS_MANAGED_ALIAS.equals(reference)
                || reference.endsWith(":" + account + ":" + SQS_MANAGED_ALIAS) && reference.startsWith("arn:");
        if (!named || keys.read(s -> s.alias(account, SQS_MANAGED_ALIAS)) != null) {
            return;
        }
        String keyId = java.util.UUID.nameUUIDFromBytes(random.apply(16)).toString();
        String material = newWrappedMaterial();
        long now = clock.millis();
        keys.write(s -> s.alias(account, SQS_MANAGED_ALIAS) != null ? null
                : new KmsCommand("CreateKey", account, keyId, SQS_MANAGED_ALIAS, now, material,
                        "Default key that protects my SQS messages when no other key is defined", KeyPolicies.managedSqs(account, s.region()),
                        "AWS", 0, null, null));
    }

    /** Resolves a reference as {@code account} names it; an ARN may name another account (authorization decides). */
    Resolved resolve(String account, String reference) throws KmsException {
        if (reference == null || reference.isEmpty() || reference.length() > 2048) {
            throw KmsException.validation("1 validation error detected: Value at 'keyId' failed to satisfy constraint: "
                    + "Member must have length " + (reference == null || reference.isEmpty() ? "greater than or equal to 1" : "less than or equal to 2048"));
        }
        ensureManaged(account, reference);
        return keys.read(s -> resolve(s, account, reference));
    }

    static Resolved resolve(KmsState s, String account, String reference) throws KmsException {
        String owner = account;
        String keyId;
        if (reference.startsWith("arn:")) {
            String[] p = reference.split(":", 6);
            if (p.length < 6 || !p[2].equals("kms")) {
                throw new KmsException("NotFoundException", "Invalid arn " + reference);
            }
            owner = p[4];
            if (p[5].startsWith("alias/")) {
                KmsState.Alias a = s.alias(owner, p[5]);
                if (a == null) {
                    throw KmsException.aliasNotFound(reference);
                }
                keyId = a.keyId();
            } else if (p[5].startsWith("key/")) {
                keyId = p[5].substring(4);
            } else {
                throw new KmsException("NotFoundException", "Invalid arn " + reference);
            }
        } else if (reference.startsWith("alias/")) {
            KmsState.Alias a = s.alias(account, reference);
            if (a == null) {
                throw KmsException.aliasNotFound(s.aliasArn(account, reference));
            }
            keyId = a.keyId();
        } else if (UUID.matcher(reference).matches()) {
            keyId = reference;
        } else {
            throw new KmsException("NotFoundException", "Invalid keyId '" + reference + "'");
        }
        KmsKey k = s.key(keyId);
        if (k == null || !k.account.equals(owner)) {
            throw KmsException.keyNotFound(s.keyArn(owner, keyId));
        }
        return new Resolved(k.keyId, k.arn, k.account, k.state, k.currentVersion(), k.materials.get(k.currentVersion() - 1));
    }

    static void requireUsable(Resolved k) throws KmsException {
        if (KmsKey.DISABLED.equals(k.state())) {
            throw KmsException.disabled(k.arn());
        }
        if (KmsKey.PENDING_DELETION.equals(k.state())) {
            throw KmsException.pendingDeletion(k.arn());
        }
    }

    /** Encrypts under the key's current material. */
    byte[] encrypt(Resolved k, byte[] plaintext, Map<String, String> context) throws KmsException {
        requireUsable(k);
        byte[] material = master.unwrap(Base64.getDecoder().decode(k.wrapped()));
        try {
            return CiphertextBlob.seal(material, k.arn(), k.version(), random.apply(CiphertextBlob.IV_BYTES), plaintext, context);
        } finally {
            java.util.Arrays.fill(material, (byte) 0);
        }
    }

    /** The key a blob names (InvalidCiphertextException when it names none, or one that is gone). */
    Resolved keyOf(CiphertextBlob blob) throws KmsException {
        return keys.read(s -> {
            String[] p = blob.keyArn().split(":", 6);
            if (p.length < 6 || !p[5].startsWith("key/")) {
                throw KmsException.invalidCiphertext();
            }
            KmsKey k = s.key(p[5].substring(4));
            if (k == null || !k.arn.equals(blob.keyArn()) || blob.materialVersion() > k.currentVersion()) {
                throw KmsException.invalidCiphertext();
            }
            return new Resolved(k.keyId, k.arn, k.account, k.state, blob.materialVersion(),
                    k.materials.get(blob.materialVersion() - 1));
        });
    }

    /** Opens a blob with the material version it was sealed with (rotation keeps old versions). */
    byte[] decrypt(Resolved k, CiphertextBlob blob, Map<String, String> context) throws KmsException {
        requireUsable(k);
        byte[] material = master.unwrap(Base64.getDecoder().decode(k.wrapped()));
        try {
            return blob.open(material, context);
        } finally {
            java.util.Arrays.fill(material, (byte) 0);
        }
    }
}
