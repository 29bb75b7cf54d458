package io.hikyaku.kms;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/** One key as the state holds it: metadata and every version of its wrapped material (old ones still decrypt). */
final class KmsKey {

    static final String ENABLED = "Enabled";
    static final String DISABLED = "Disabled";
    static final String PENDING_DELETION = "PendingDeletion";

    final String account;
    final String keyId;
    final String arn;
    final long created;
    final String description;
    final String manager;
    String state = ENABLED;
    String policy;
    long deletionDate;
    int pendingWindowDays;
    boolean rotation;
    /** Automatic rotation: the period, and when it next rotates (0 while rotation is off). */
    int rotationPeriodDays = KeyRotations.DEFAULT_PERIOD_DAYS;
    long nextRotation;
    /** Every rotation so far, in version order (version 2 onwards): ListKeyRotations. */
    final List<KeyRotations.Rotation> rotations = new ArrayList<>();
    /** The key's grants by grant id (sorted, so listing and digest are stable). */
    final TreeMap<String, Grant> grants = new TreeMap<>();
    /** When the current material was made (creation, or the last rotation): what automatic rotation reads. */
    long materialSince;
    /** Wrapped material, base64, by version (index 0 is version 1). */
    final List<String> materials = new ArrayList<>();
    final TreeMap<String, String> tags = new TreeMap<>();

    KmsKey(String account, String keyId, String arn, long created, String description, String manager, String policy) {
        this.account = account;
        this.keyId = keyId;
        this.arn = arn;
        this.created = created;
        this.description = description;
        this.manager = manager;
        this.policy = policy;
        this.materialSince = created;
    }

    int currentVersion() {
        return materials.size();
    }
}
