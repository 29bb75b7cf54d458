package io.hikyaku.kms;

import java.util.List;
import java.util.Map;

/**
 * A change to the key state, as data. The time and every random value (wrapped key material) travel in the
 * command, drawn before it is logged, so that replaying the log rebuilds the same state: apply reads no clock
 * and no randomness. Fields an operation does not use are null (or 0).
 *
 * @param op        CreateKey, CreateAlias, UpdateAlias, DeleteAlias, PutKeyPolicy, EnableKey, DisableKey,
 *                  ScheduleKeyDeletion, CancelKeyDeletion, TagResource, UntagResource, EnableKeyRotation,
 *                  DisableKeyRotation, RotateKeyOnDemand, RotateKeyAutomatically, CreateGrant, RetireGrant,
 *                  RevokeGrant, DeleteDueKeys, CreateSqsOwnedKey and
 *                  RotateSqsOwnedKey (SSE-SQS), RewrapMaterials (a new master key)
 * @param time      epoch millis of the request (for ScheduleKeyDeletion: the deletion date)
 * @param material  key material wrapped by the master key, base64 (CreateKey, RotateKeyOnDemand,
 *                  RotateKeyAutomatically, CreateSqsOwnedKey, RotateSqsOwnedKey)
 * @param text      the description (CreateKey); the grant as JSON (CreateGrant); the grant id (RetireGrant,
 *                  RevokeGrant)
 * @param policy    the key policy (CreateKey, PutKeyPolicy)
 * @param manager   CUSTOMER or AWS (CreateKey)
 * @param days      the deletion window (ScheduleKeyDeletion); the rotation period (EnableKeyRotation, 0 = 365)
 * @param tags      the tags (CreateKey, TagResource); for RewrapMaterials every re-wrapped key's materials, by key
 *                  id ({@code sqs-owned:<account>} for an SQS owned key), comma-separated in version order
 */
public record KmsCommand(String op, String account, String keyId, String alias, long time, String material,
                         String text, String policy, String manager, int days, Map<String, String> tags,
                         List<String> tagKeys) {

    static KmsCommand of(String op, String account, String keyId, long time) {
        return new KmsCommand(op, account, keyId, null, time, null, null, null, null, 0, null, null);
    }
}
