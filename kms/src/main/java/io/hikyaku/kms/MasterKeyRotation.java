package io.hikyaku.kms;

import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.TreeMap;
import java.util.function.IntFunction;

/**
 * Changing the master key: at start, every key material that opens only with the previous master key is wrapped
 * again under the current one, all in one logged {@code RewrapMaterials} command, so a crash leaves either the old
 * wrapping or the new one, never half of each. After it the previous master key is no longer needed to start.
 * Material that opens with neither stops the start (the wrong pair of keys was given).
 */
final class MasterKeyRotation {

    /** The name a re-wrapped SQS owned key goes by in the command (account keys go by their key id). */
    static final String SQS_OWNED = "sqs-owned:";

    private MasterKeyRotation() {
    }

    /** @return how many materials were re-wrapped (0: all were under the current master key already) */
    static int rewrap(KmsKeys keys, MasterKey current, MasterKey previous, long now, IntFunction<byte[]> random)
            throws KmsException {
        int[] count = {0};
        keys.write(s -> {
            TreeMap<String, String> rewrapped = new TreeMap<>();
            for (KmsKey k : s.everyKey()) {
                List<String> materials = new ArrayList<>(k.materials.size());
                boolean changed = false;
                for (String m : k.materials) {
                    byte[] wrapped = Base64.getDecoder().decode(m);
                    if (opens(current, wrapped)) {
                        materials.add(m);
                        continue;
                    }
                    byte[] plain;
                    try {
                        plain = previous.unwrap(wrapped);
                    } catch (IllegalStateException e) {
                        throw new IllegalStateException("KMS key " + k.arn + ": its material opens with neither the "
                                + "master key nor the previous master key");
                    }
                    try {
                        materials.add(Base64.getEncoder().encodeToString(current.wrap(plain, random.apply(CiphertextBlob.IV_BYTES))));
                    } finally {
                        java.util.Arrays.fill(plain, (byte) 0);
                    }
                    changed = true;
                    count[0]++;
                }
                if (changed) {
                    String name = "SQS".equals(k.manager) && s.sqsOwned(k.account) == k ? SQS_OWNED + k.account : k.keyId;
                    rewrapped.put(name, String.join(",", materials));
                }
            }
            return rewrapped.isEmpty() ? null
                    : new KmsCommand("RewrapMaterials", null, null, null, now, null, null, null, null, 0, rewrapped, null);
        });
        return count[0];
    }

    private static boolean opens(MasterKey key, byte[] wrapped) {
        try {
            java.util.Arrays.fill(key.unwrap(wrapped), (byte) 0);
            return true;
        } catch (IllegalStateException e) {
            return false;
        }
    }
}
