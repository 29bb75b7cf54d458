package io.hikyaku.kms;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Rotation of a customer managed key's material: EnableKeyRotation (RotationPeriodInDays 90-2560, default 365),
 * DisableKeyRotation, GetKeyRotationStatus, RotateKeyOnDemand and ListKeyRotations. An enabled key with rotation
 * on gets new material once its next rotation date has passed on the service clock ({@link KeyCrypto#applyDueChanges},
 * a logged {@code RotateKeyAutomatically}); every version stays, so what older material sealed still opens.
 */
final class KeyRotations {

    static final int DEFAULT_PERIOD_DAYS = 365;
    static final int MIN_PERIOD_DAYS = 90;
    static final int MAX_PERIOD_DAYS = 2560;
    /** AWS's quota of on-demand rotations per key. */
    static final int MAX_ON_DEMAND = 25;
    static final String AUTOMATIC = "AUTOMATIC";
    static final String ON_DEMAND = "ON_DEMAND";

    /** One completed rotation: when, and whether scheduled or on demand. */
    record Rotation(long date, String type) { }

    private final KeyCrypto crypto;

    KeyRotations(KeyCrypto crypto) {
        this.crypto = crypto;
    }

    /** Whether a key's automatic rotation is due at {@code now} (a disabled key waits until enabled again). */
    static boolean due(KmsKey k, long now) {
        return k.rotation && KmsKey.ENABLED.equals(k.state) && k.nextRotation > 0 && k.nextRotation <= now;
    }

    ObjectNode enable(ObjectNode in, String account) throws KmsException {
        KeyCrypto.Resolved k = crypto.resolve(account, KmsApi.required(in, "KeyId"));
        int days = DEFAULT_PERIOD_DAYS;
        if (in.hasNonNull("RotationPeriodInDays")) {
            days = in.get("RotationPeriodInDays").asInt();
            if (days < MIN_PERIOD_DAYS || days > MAX_PERIOD_DAYS) {
                throw KmsException.validation("1 validation error detected: Value '" + days + "' at 'rotationPeriodInDays' failed to satisfy constraint: Member must have value "
                        + (days < MIN_PERIOD_DAYS ? "greater than or equal to " + MIN_PERIOD_DAYS : "less than or equal to " + MAX_PERIOD_DAYS));
            }
        }
        int period = days;
        long now = crypto.clock.millis();
        crypto.keys.write(s -> {
            checkChangeable(s.key(k.keyId()), k.arn());
            return new KmsCommand("EnableKeyRotation", account, k.keyId(), null, now, null, null, null, null, period, null, null);
        });
        return KmsApi.JSON.createObjectNode();
    }

    ObjectNode disable(ObjectNode in, String account) throws KmsException {
        KeyCrypto.Resolved k = crypto.resolve(account, KmsApi.required(in, "KeyId"));
        long now = crypto.clock.millis();
        crypto.keys.write(s -> {
            checkChangeable(s.key(k.keyId()), k.arn());
            return KmsCommand.of("DisableKeyRotation", account, k.keyId(), now);
        });
        return KmsApi.JSON.createObjectNode();
    }

    private static void checkChangeable(KmsKey key, String arn) throws KmsException {
        if (KmsKey.PENDING_DELETION.equals(key.state)) {
            throw KmsException.pendingDeletion(arn);
        }
        if (KmsKey.DISABLED.equals(key.state)) {
            throw KmsException.disabled(arn);
        }
        if ("AWS".equals(key.manager)) {
            throw new KmsException("UnsupportedOperationException", arn + " is an AWS managed key; its rotation cannot be changed.");
        }
    }

    ObjectNode status(ObjectNode in, String account) throws KmsException {
        KeyCrypto.Resolved k = crypto.resolve(account, KmsApi.required(in, "KeyId"));
        return crypto.keys.read(s -> {
            KmsKey key = s.key(k.keyId());
            ObjectNode out = KmsApi.JSON.createObjectNode();
            out.put("KeyRotationEnabled", key.rotation);
            out.put("KeyId", key.arn);
            if (key.rotation) {
                out.put("RotationPeriodInDays", key.rotationPeriodDays);
                out.put("NextRotationDate", key.nextRotation / 1000.0);
            }
            return out;
        });
    }

    ObjectNode onDemand(ObjectNode in, String account) throws KmsException {
        KeyCrypto.Resolved k = crypto.resolve(account, KmsApi.required(in, "KeyId"));
        KeyCrypto.requireUsable(k);
        String material = crypto.newWrappedMaterial();
        long now = crypto.clock.millis();
        crypto.keys.write(s -> {
            KmsKey key = s.key(k.keyId());
            if ("AWS".equals(key.manager)) {
                throw new KmsException("UnsupportedOperationException", k.arn() + " is an AWS managed key; it cannot be rotated on demand.");
            }
            if (key.rotations.stream().filter(r -> ON_DEMAND.equals(r.type())).count() >= MAX_ON_DEMAND) {
                throw new KmsException("LimitExceededException", "The request was rejected because a quota was exceeded: "
                        + k.arn() + " has had " + MAX_ON_DEMAND + " on-demand rotations.");
            }
            return new KmsCommand("RotateKeyOnDemand", account, k.keyId(), null, now, material, null, null, null, 0, null, null);
        });
        ObjectNode out = KmsApi.JSON.createObjectNode();
        out.put("KeyId", k.keyId());
        return out;
    }

    /** The completed rotations, oldest first; the marker is the index of the next one. */
    ObjectNode list(ObjectNode in, String account) throws KmsException {
        KeyCrypto.Resolved k = crypto.resolve(account, KmsApi.required(in, "KeyId"));
        String include = KmsApi.text(in, "IncludeKeyMaterial", "ROTATIONS_ONLY");
        if (!include.equals("ROTATIONS_ONLY") && !include.equals("ALL_KEY_MATERIAL")) {
            throw KmsException.validation("1 validation error detected: Value '" + include + "' at 'includeKeyMaterial' failed to satisfy constraint: "
                    + "Member must satisfy enum value set: [ALL_KEY_MATERIAL, ROTATIONS_ONLY]");
        }
        int limit = KmsApi.limit(in);
        String marker = KmsApi.text(in, "Marker", null);
        return crypto.keys.read(s -> {
            KmsKey key = s.key(k.keyId());
            // material versions listed: the rotations' (2..n), and with ALL_KEY_MATERIAL the original (1) first
            int first = include.equals("ALL_KEY_MATERIAL") ? 1 : 2;
            int count = key.currentVersion() - first + 1;
            int from = 0;
            if (marker != null) {
                try {
                    from = Integer.parseInt(marker);
                } catch (NumberFormatException e) {
                    from = -1;
                }
                if (from < 0 || from > count) {
                    throw new KmsException("InvalidMarkerException", "Invalid marker");
                }
            }
            ObjectNode out = KmsApi.JSON.createObjectNode();
            ArrayNode list = out.putArray("Rotations");
            int to = Math.min(count, from + limit);
            for (int i = from; i < to; i++) {
                int version = first + i;
                ObjectNode e = list.addObject().put("KeyId", key.keyId).put("KeyMaterialId", KmsApi.materialId(key, version))
                        .put("KeyMaterialState", version == key.currentVersion() ? "CURRENT" : "NON_CURRENT");
                if (version >= 2) {
                    Rotation r = key.rotations.get(version - 2);
                    e.put("RotationDate", r.date() / 1000.0).put("RotationType", r.type());
                }
            }
            out.put("Truncated", to < count);
            if (to < count) {
                out.put("NextMarker", Integer.toString(to));
            }
            return out;
        });
    }
}
