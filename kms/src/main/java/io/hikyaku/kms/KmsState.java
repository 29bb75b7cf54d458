package io.hikyaku.kms;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Every account's keys and aliases. {@link #apply} is deterministic and trusts its command: the caller (KmsKeys,
 * under its lock) has checked it against this state before logging it, so apply never refuses and a logged
 * command always replays. {@link #digest} hashes the whole state so that two replicas or a replay can be compared.
 */
public final class KmsState {

    /** An alias: the key it names and when it was made and last pointed elsewhere. */
    record Alias(String name, String keyId, long created, long updated) { }

    private static final long DAY_MILLIS = 86_400_000L;

    private final String region;
    private final TreeMap<String, KmsKey> keys = new TreeMap<>();
    private final TreeMap<String, TreeMap<String, Alias>> aliases = new TreeMap<>();
    /** SSE-SQS: one SQS owned key per account, never listed or usable through the KMS API. */
    private final TreeMap<String, KmsKey> sqsOwned = new TreeMap<>();

    public KmsState(String region) {
        this.region = region;
    }

    String region() {
        return region;
    }

    String keyArn(String account, String keyId) {
        return "arn:aws:kms:" + region + ":" + account + ":key/" + keyId;
    }

    String aliasArn(String account, String alias) {
        return "arn:aws:kms:" + region + ":" + account + ":" + alias;
    }

    String sqsOwnedArn(String account, String keyId) {
        return "arn:aws:sqs:" + region + ":" + account + ":sse-sqs-key/" + keyId;
    }

    KmsKey sqsOwned(String account) {
        return sqsOwned.get(account);
    }

    KmsKey key(String keyId) {
        return keys.get(keyId);
    }

    Alias alias(String account, String name) {
        TreeMap<String, Alias> of = aliases.get(account);
        return of == null ? null : of.get(name);
    }

    List<KmsKey> keysOf(String account) {
        List<KmsKey> out = new ArrayList<>();
        for (KmsKey k : keys.values()) {
            if (k.account.equals(account)) {
                out.add(k);
            }
        }
        return out;
    }

    List<Alias> aliasesOf(String account) {
        TreeMap<String, Alias> of = aliases.get(account);
        return of == null ? List.of() : new ArrayList<>(of.values());
    }

    /** Keys whose deletion window has ended at {@code now}. */
    List<KmsKey> dueForDeletion(long now) {
        List<KmsKey> out = new ArrayList<>();
        for (KmsKey k : keys.values()) {
            if (KmsKey.PENDING_DELETION.equals(k.state) && k.deletionDate <= now) {
                out.add(k);
            }
        }
        return out;
    }

    /** Ids of the keys whose automatic rotation is due at {@code now}. */
    List<String> dueForRotation(long now) {
        List<String> out = new ArrayList<>();
        for (KmsKey k : keys.values()) {
            if (KeyRotations.due(k, now)) {
                out.add(k.keyId);
            }
        }
        return out;
    }

    /** Every account's keys (not the SQS owned ones). */
    List<KmsKey> everyAccountKey() {
        return new ArrayList<>(keys.values());
    }

    /** The account keys, then the SQS owned keys. */
    List<KmsKey> everyKey() {
        List<KmsKey> all = new ArrayList<>(keys.values());
        all.addAll(sqsOwned.values());
        return all;
    }

    /** Unwraps every material once; a failure means the master key is not the one that wrapped them. */
    void checkMaterials(MasterKey master) {
        for (KmsKey k : everyKey()) {
            for (String m : k.materials) {
                try {
                    java.util.Arrays.fill(master.unwrap(java.util.Base64.getDecoder().decode(m)), (byte) 0);
                } catch (IllegalStateException e) {
                    throw new IllegalStateException("KMS key " + k.arn + ": " + e.getMessage()
                            + "; start with the master key these keys were created under");
                }
            }
        }
    }

    public void apply(KmsCommand c) {
        KmsKey key = c.keyId() == null ? null : keys.get(c.keyId());
        switch (c.op()) {
            case "CreateKey" -> {
                KmsKey k = new KmsKey(c.account(), c.keyId(), keyArn(c.account(), c.keyId()), c.time(),
                        c.text() == null ? "" : c.text(), c.manager(), c.policy());
                k.materials.add(c.material());
                if (c.tags() != null) {
                    k.tags.putAll(c.tags());
                }
                if ("AWS".equals(c.manager())) { // AWS rotates its managed keys yearly
                    k.rotation = true;
                    k.nextRotation = c.time() + KeyRotations.DEFAULT_PERIOD_DAYS * DAY_MILLIS;
                }
                keys.put(c.keyId(), k);
                if (c.alias() != null) {
                    aliases.computeIfAbsent(c.account(), a -> new TreeMap<>())
                            .put(c.alias(), new Alias(c.alias(), c.keyId(), c.time(), c.time()));
                }
            }
            case "CreateSqsOwnedKey" -> {
                KmsKey k = new KmsKey(c.account(), c.keyId(), sqsOwnedArn(c.account(), c.keyId()), c.time(), "", "SQS", null);
                k.materials.add(c.material());
                sqsOwned.put(c.account(), k);
            }
            case "CreateAlias", "UpdateAlias" -> {
                TreeMap<String, Alias> of = aliases.computeIfAbsent(c.account(), a -> new TreeMap<>());
                Alias old = of.get(c.alias());
                of.put(c.alias(), new Alias(c.alias(), c.keyId(), old == null ? c.time() : old.created(), c.time()));
            }
            case "DeleteAlias" -> {
                TreeMap<String, Alias> of = aliases.get(c.account());
                if (of != null) {
                    of.remove(c.alias());
                }
            }
            case "PutKeyPolicy" -> key.policy = c.policy();
            case "EnableKey" -> key.state = KmsKey.ENABLED;
            case "DisableKey" -> key.state = KmsKey.DISABLED;
            case "ScheduleKeyDeletion" -> {
                key.state = KmsKey.PENDING_DELETION;
                key.deletionDate = c.time();
                key.pendingWindowDays = c.days();
            }
            case "CancelKeyDeletion" -> {
                key.state = KmsKey.DISABLED;
                key.deletionDate = 0;
                key.pendingWindowDays = 0;
            }
            case "TagResource" -> key.tags.putAll(c.tags());
            case "UntagResource" -> c.tagKeys().forEach(key.tags::remove);
            case "EnableKeyRotation" -> {
                int period = c.days() == 0 ? KeyRotations.DEFAULT_PERIOD_DAYS : c.days(); // 0: logged before periods
                // the first rotation is one period after enabling; a new period keeps the schedule's start
                long from = key.rotation ? key.nextRotation - key.rotationPeriodDays * DAY_MILLIS : c.time();
                key.rotation = true;
                key.rotationPeriodDays = period;
                key.nextRotation = from + period * DAY_MILLIS;
            }
            case "DisableKeyRotation" -> {
                key.rotation = false;
                key.nextRotation = 0;
            }
            case "RotateKeyOnDemand" -> {
                key.materials.add(c.material());
                key.materialSince = c.time();
                key.rotations.add(new KeyRotations.Rotation(c.time(), KeyRotations.ON_DEMAND));
            }
            case "RotateKeyAutomatically" -> {
                key.materials.add(c.material());
                key.materialSince = c.time();
                key.rotations.add(new KeyRotations.Rotation(c.time(), KeyRotations.AUTOMATIC));
                key.nextRotation = c.time() + key.rotationPeriodDays * DAY_MILLIS;
            }
            case "CreateGrant" -> {
                Grant g = KeyGrants.parse(c.text());
                key.grants.put(g.grantId(), g);
            }
            case "RetireGrant", "RevokeGrant" -> key.grants.remove(c.text());
            case "RotateSqsOwnedKey" -> {
                KmsKey k = sqsOwned.get(c.account());
                k.materials.add(c.material());
                k.materialSince = c.time();
            }
            case "RewrapMaterials" -> c.tags().forEach((name, joined) -> {
                KmsKey k = name.startsWith(MasterKeyRotation.SQS_OWNED)
                        ? sqsOwned.get(name.substring(MasterKeyRotation.SQS_OWNED.length())) : keys.get(name);
                k.materials.clear();
                k.materials.addAll(List.of(joined.split(",")));
            });
            case "DeleteDueKeys" -> {
                for (KmsKey k : dueForDeletion(c.time())) {
                    keys.remove(k.keyId);
                    TreeMap<String, Alias> of = aliases.get(k.account);
                    if (of != null) {
                        of.values().removeIf(a -> a.keyId().equals(k.keyId));
                    }
                }
            }
            default -> throw new IllegalArgumentException("unknown KMS command " + c.op());
        }
    }

    /** SHA-256 over a canonical rendering of every key (materials included, wrapped) and alias. */
    public String digest() {
        StringBuilder b = new StringBuilder();
        for (KmsKey k : keys.values()) {
            b.append("K|").append(k.account).append('|').append(k.keyId).append('|').append(k.created).append('|')
                    .append(k.description).append('|').append(k.manager).append('|').append(k.state).append('|')
                    .append(k.policy).append('|').append(k.deletionDate).append('|').append(k.pendingWindowDays)
                    .append('|').append(k.rotation).append('|').append(k.materials).append('|').append(k.tags)
                    .append('|').append(k.rotationPeriodDays).append('|').append(k.nextRotation).append('|').append(k.rotations)
                    .append('|').append(k.grants.values()).append('\n');
        }
        for (KmsKey k : sqsOwned.values()) {
            b.append("S|").append(k.account).append('|').append(k.keyId).append('|').append(k.created).append('|')
                    .append(k.materialSince).append('|').append(k.materials).append('\n');
        }
        for (Map.Entry<String, TreeMap<String, Alias>> e : aliases.entrySet()) {
            for (Alias a : e.getValue().values()) {
                b.append("A|").append(e.getKey()).append('|').append(a).append('\n');
            }
        }
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(b.toString().getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
