package io.hikyaku.kms;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.protocol.HttpRequestData;
import io.hikyaku.protocol.HttpResponseData;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * KMS's JSON 1.1 protocol ({@code X-Amz-Target: TrentService.<Op>}) over the key state. The caller has
 * authenticated and authorized the request (see {@link KmsRequests#authorizationTarget}) and passes the account it
 * acts for. Times, key ids and random bytes are drawn here and carried in the commands.
 */
public final class KmsApi {

    static final ObjectMapper JSON = new ObjectMapper();
    static final String CONTENT_TYPE = "application/x-amz-json-1.1";
    static final long DAY_MILLIS = 86_400_000L;
    private static final Pattern ALIAS_NAME = Pattern.compile("^[a-zA-Z0-9:/_-]+$");
    private static final Set<String> KEY_SPECS = Set.of("RSA_2048", "RSA_3072", "RSA_4096", "ECC_NIST_P256", "ECC_NIST_P384",
            "ECC_NIST_P521", "ECC_SECG_P256K1", "SYMMETRIC_DEFAULT", "HMAC_224", "HMAC_256", "HMAC_384", "HMAC_512", "SM2",
            "ML_DSA_44", "ML_DSA_65", "ML_DSA_87");
    private static final Set<String> KEY_USAGES = Set.of("SIGN_VERIFY", "ENCRYPT_DECRYPT", "GENERATE_VERIFY_MAC", "KEY_AGREEMENT");
    static final int MAX_LIST = 1000;
    static final int MAX_TAGS = 50;
    /** AWS's quota is 100,000 keys per account and Region; every key lives in memory here. */
    static final int MAX_KEYS_PER_ACCOUNT = 100_000;

    private final KeyCrypto crypto;
    private final KeyRotations rotations;
    private final KeyGrants grants;

    public KmsApi(KeyCrypto crypto) {
        this.crypto = crypto;
        this.rotations = new KeyRotations(crypto);
        this.grants = new KeyGrants(crypto);
    }

    /** The operation a request names ({@code TrentService.Encrypt} → {@code Encrypt}), or null. */
    public static String operation(HttpRequestData raw) {
        String target = raw.header("x-amz-target");
        return target != null && target.startsWith(KmsRequests.TARGET_PREFIX) ? target.substring(KmsRequests.TARGET_PREFIX.length()) : null;
    }

    public HttpResponseData handle(HttpRequestData raw, String account) {
        try {
            String op = operation(raw);
            ObjectNode in = body(raw);
            crypto.applyDueChanges();
            KeyGrants.checkGrantTokens(in);
            ObjectNode out = dispatch(op == null ? "" : op, in, account);
            return new HttpResponseData(200, Map.of("Content-Type", CONTENT_TYPE), JSON.writeValueAsBytes(out));
        } catch (KmsException e) {
            return KmsRequests.error(e);
        } catch (IOException e) {
            return KmsRequests.error(new KmsException("SerializationException", "Malformed request body"));
        }
    }

    private static ObjectNode body(HttpRequestData raw) throws KmsException {
        byte[] b = raw.body();
        if (b == null || b.length == 0) {
            return JSON.createObjectNode();
        }
        try {
            JsonNode n = JSON.readTree(b);
            if (n instanceof ObjectNode o) {
                return o;
            }
        } catch (IOException e) {
            // answered below
        }
        throw new KmsException("SerializationException", "Start of structure or map found where not expected");
    }

    ObjectNode dispatch(String op, ObjectNode in, String account) throws KmsException {
        return switch (op) {
            case "CreateKey" -> createKey(in, account);
            case "DescribeKey" -> describeKey(in, account);
            case "ListKeys" -> listKeys(in, account);
            case "CreateAlias" -> createAlias(in, account, true);
            case "UpdateAlias" -> createAlias(in, account, false);
            case "DeleteAlias" -> deleteAlias(in, account);
            case "ListAliases" -> listAliases(in, account);
            case "GetKeyPolicy" -> getKeyPolicy(in, account);
            case "PutKeyPolicy" -> putKeyPolicy(in, account);
            case "ListKeyPolicies" -> listKeyPolicies(in, account);
            case "EnableKey", "DisableKey" -> simple(op, in, account);
            case "EnableKeyRotation" -> rotations.enable(in, account);
            case "DisableKeyRotation" -> rotations.disable(in, account);
            case "ListKeyRotations" -> rotations.list(in, account);
            case "CreateGrant" -> grants.create(in, account);
            case "ListGrants" -> grants.list(in, account);
            case "ListRetirableGrants" -> grants.listRetirable(in, account);
            case "RetireGrant" -> grants.retire(in, account);
            case "RevokeGrant" -> grants.revoke(in, account);
            case "ScheduleKeyDeletion" -> scheduleDeletion(in, account);
            case "CancelKeyDeletion" -> cancelDeletion(in, account);
            case "Encrypt" -> encrypt(in, account);
            case "Decrypt" -> decrypt(in, account);
            case "ReEncrypt" -> reEncrypt(in, account);
            case "GenerateDataKey" -> generateDataKey(in, account, true);
            case "GenerateDataKeyWithoutPlaintext" -> generateDataKey(in, account, false);
            case "GenerateRandom" -> generateRandom(in);
            case "TagResource" -> tagResource(in, account);
            case "UntagResource" -> untagResource(in, account);
            case "ListResourceTags" -> listResourceTags(in, account);
            case "GetKeyRotationStatus" -> rotations.status(in, account);
            case "RotateKeyOnDemand" -> rotations.onDemand(in, account);
            default -> throw new KmsException("UnknownOperationException", null);
        };
    }

    /**
     * What IAM decides for a request: {@code kms:<Op>} and the ARN of the key it acts on (from KeyId, TargetKeyId,
     * DestinationKeyId or the ciphertext blob), or {@code *} for CreateKey, ListKeys, ListAliases, GenerateRandom
     * and for a reference that names no key (the call then answers NotFound). Reads only: creates nothing.
     *
     * @return {iamAction, resource, keyAccount (null for *), keyPolicy (null for *)}
     */
    public String[] authorizationTarget(HttpRequestData raw, String account) {
        String op = operation(raw);
        String action = "kms:" + ("ReEncrypt".equals(op) ? "ReEncryptFrom" : op == null ? "" : op);
        if (op == null || KmsRequests.ON_NO_KEY.contains(op)) {
            return new String[] {action, "*", null, null};
        }
        try {
            ObjectNode in = body(raw);
            String reference = text(in, "KeyId", text(in, "TargetKeyId", null));
            if (reference == null && "RetireGrant".equals(op) && in.hasNonNull("GrantToken")) {
                reference = KeyGrants.Token.parse(in.get("GrantToken").asText()).keyArn();
            }
            String named = reference;
            KeyCrypto.Resolved k;
            if (named != null) {
                k = crypto.keys.read(s -> KeyCrypto.resolve(s, account, named));
            } else if (in.hasNonNull("CiphertextBlob")) {
                k = crypto.keyOf(CiphertextBlob.parse(Base64.getDecoder().decode(in.get("CiphertextBlob").asText())));
            } else {
                return new String[] {action, "*", null, null};
            }
            String policy = crypto.keys.read(s -> "RetireGrant".equals(op)
                    ? KeyGrants.policyForRetiring(s.key(k.keyId()), KeyGrants.grantIdOf(in))
                    : KeyGrants.policyWithGrants(s.key(k.keyId())));
            return new String[] {action, k.arn(), k.account(), policy};
        } catch (KmsException | IllegalArgumentException unresolved) {
            return new String[] {action, "*", null, null};
        }
    }

    /**
     * The KMS condition keys of a request: {@code kms:CallerAccount}, {@code kms:EncryptionContext:<k>} and
     * {@code kms:EncryptionContextKeys} (from EncryptionContext, or ReEncrypt's source context).
     * {@code kms:ViaService} is never set on a direct call (only a service calling for a principal has it).
     */
    public static Map<String, List<String>> conditionKeys(HttpRequestData raw, String callerAccount) {
        Map<String, List<String>> keys = new java.util.HashMap<>();
        if (callerAccount != null) {
            keys.put("kms:CallerAccount", List.of(callerAccount));
        }
        try {
            ObjectNode in = body(raw);
            Map<String, String> context = context(in, in.has("SourceEncryptionContext") ? "SourceEncryptionContext" : "EncryptionContext");
            if (!context.isEmpty()) {
                context.forEach((k, v) -> keys.put("kms:EncryptionContext:" + k, List.of(v)));
                keys.put("kms:EncryptionContextKeys", List.copyOf(context.keySet()));
            }
        } catch (KmsException malformed) {
            // the call itself answers the malformed body
        }
        return keys;
    }

    /** ReEncrypt also needs kms:ReEncryptTo on its destination key (null when not ReEncrypt or unresolved). */
    public String[] destinationTarget(HttpRequestData raw, String account) {
        if (!"ReEncrypt".equals(operation(raw))) {
            return null;
        }
        try {
            String reference = text(body(raw), "DestinationKeyId", null);
            if (reference == null) {
                return null;
            }
            KeyCrypto.Resolved k = crypto.keys.read(s -> KeyCrypto.resolve(s, account, reference));
            String policy = crypto.keys.read(s -> KeyGrants.policyWithGrants(s.key(k.keyId())));
            return new String[] {"kms:ReEncryptTo", k.arn(), k.account(), policy};
        } catch (KmsException unresolved) {
            return null;
        }
    }

    // ---- keys ----

    private ObjectNode createKey(ObjectNode in, String account) throws KmsException {
        String spec = text(in, "KeySpec", text(in, "CustomerMasterKeySpec", "SYMMETRIC_DEFAULT"));
        if (!KEY_SPECS.contains(spec)) {
            throw KmsException.validation("1 validation error detected: Value '" + spec + "' at 'keySpec' failed to satisfy constraint: "
                    + "Member must satisfy enum value set: " + new java.util.TreeSet<>(KEY_SPECS));
        }
        String usage = text(in, "KeyUsage", "ENCRYPT_DECRYPT");
        if (!KEY_USAGES.contains(usage)) {
            throw KmsException.validation("1 validation error detected: Value '" + usage + "' at 'keyUsage' failed to satisfy constraint: "
                    + "Member must satisfy enum value set: " + new java.util.TreeSet<>(KEY_USAGES));
        }
        if (!spec.equals("SYMMETRIC_DEFAULT")) {
            throw new KmsException("UnsupportedOperationException", "KeySpec " + spec + " is not supported by this server; only SYMMETRIC_DEFAULT");
        }
        if (!usage.equals("ENCRYPT_DECRYPT")) {
            throw KmsException.validation("The operation failed because the KeyUsage value of the new key is incompatible with the key spec specified in the request.");
        }
        String origin = text(in, "Origin", "AWS_KMS");
        if (!origin.equals("AWS_KMS")) {
            throw new KmsException("UnsupportedOperationException", "Origin " + origin + " is not supported by this server; only AWS_KMS");
        }
        if (in.path("MultiRegion").asBoolean(false)) {
            throw new KmsException("UnsupportedOperationException", "Multi-Region keys are not supported by this server");
        }
        String description = text(in, "Description", "");
        if (description.length() > 8192) {
            throw KmsException.validation("1 validation error detected: Value at 'description' failed to satisfy constraint: Member must have length less than or equal to 8192");
        }
        String policy = in.hasNonNull("Policy") ? checkPolicy(in.get("Policy").asText()) : KeyPolicies.defaultPolicy(account);
        TreeMap<String, String> tags = tags(in.get("Tags"));
        String keyId = java.util.UUID.nameUUIDFromBytes(crypto.random.apply(16)).toString();
        String material = crypto.newWrappedMaterial();
        long now = crypto.clock.millis();
        crypto.keys.write(s -> {
            if (s.keysOf(account).size() >= MAX_KEYS_PER_ACCOUNT) {
                throw new KmsException("LimitExceededException", "The request was rejected because a quota was exceeded. "
                        + "This server keeps at most " + MAX_KEYS_PER_ACCOUNT + " keys per account.");
            }
            return new KmsCommand("CreateKey", account, keyId, null, now, material, description, policy, "CUSTOMER", 0, tags, null);
        });
        ObjectNode out = JSON.createObjectNode();
        out.set("KeyMetadata", crypto.keys.read(s -> metadata(s, s.key(keyId))));
        return out;
    }

    private static String checkPolicy(String policy) throws KmsException {
        if (policy.isEmpty() || policy.length() > 131_072) {
            throw KmsException.validation("1 validation error detected: Value at 'policy' failed to satisfy constraint: Member must have length "
                    + (policy.isEmpty() ? "greater than or equal to 1" : "less than or equal to 131072"));
        }
        try {
            if (!(JSON.readTree(policy) instanceof ObjectNode o) || !o.has("Statement")) {
                throw new KmsException("MalformedPolicyDocumentException", "Policy contains a statement with no Statement.");
            }
        } catch (IOException e) {
            throw new KmsException("MalformedPolicyDocumentException", "The new key policy will not allow you to update the key policy in the future.");
        }
        return policy;
    }

    private ObjectNode describeKey(ObjectNode in, String account) throws KmsException {
        KeyCrypto.Resolved k = crypto.resolve(account, required(in, "KeyId"));
        ObjectNode out = JSON.createObjectNode();
        out.set("KeyMetadata", crypto.keys.read(s -> metadata(s, s.key(k.keyId()))));
        return out;
    }

    static ObjectNode metadata(KmsState s, KmsKey k) {
        ObjectNode m = JSON.createObjectNode();
        m.put("AWSAccountId", k.account);
        m.put("KeyId", k.keyId);
        m.put("Arn", k.arn);
        m.put("CreationDate", k.created / 1000.0);
        m.put("Enabled", KmsKey.ENABLED.equals(k.state));
        m.put("Description", k.description);
        m.put("KeyUsage", "ENCRYPT_DECRYPT");
        m.put("KeyState", k.state);
        if (KmsKey.PENDING_DELETION.equals(k.state)) {
            m.put("DeletionDate", k.deletionDate / 1000.0);
            m.put("PendingDeletionWindowInDays", k.pendingWindowDays);
        }
        m.put("Origin", "AWS_KMS");
        m.put("KeyManager", k.manager);
        m.put("CustomerMasterKeySpec", "SYMMETRIC_DEFAULT");
        m.put("KeySpec", "SYMMETRIC_DEFAULT");
        m.putArray("EncryptionAlgorithms").add("SYMMETRIC_DEFAULT");
        m.put("MultiRegion", false);
        m.put("CurrentKeyMaterialId", materialId(k, k.currentVersion()));
        return m;
    }

    /** A stable 64-hex-digit id per material version (AWS shows one; ours names key and version). */
    static String materialId(KmsKey k, int version) {
        try {
            return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                    .digest((k.keyId + "/" + version).getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private ObjectNode listKeys(ObjectNode in, String account) throws KmsException {
        int limit = limit(in);
        String marker = text(in, "Marker", null);
        return crypto.keys.read(s -> {
            List<KmsKey> all = s.keysOf(account);
            int from = start(marker, all.stream().map(k -> k.keyId).toList());
            ObjectNode out = JSON.createObjectNode();
            ArrayNode list = out.putArray("Keys");
            for (int i = from; i < Math.min(all.size(), from + limit); i++) {
                list.addObject().put("KeyId", all.get(i).keyId).put("KeyArn", all.get(i).arn);
            }
            page(out, all.size() > from + limit ? all.get(from + limit).keyId : null);
            return out;
        });
    }

    static int start(String marker, List<String> ids) throws KmsException {
        if (marker == null) {
            return 0;
        }
        int i = ids.indexOf(marker);
        if (i < 0) {
            throw new KmsException("InvalidMarkerException", "Invalid marker");
        }
        return i;
    }

    static void page(ObjectNode out, String next) {
        out.put("Truncated", next != null);
        if (next != null) {
            out.put("NextMarker", next);
        }
    }

    static int limit(ObjectNode in) throws KmsException {
        if (!in.hasNonNull("Limit")) {
            return 100;
        }
        int limit = in.get("Limit").asInt();
        if (limit < 1 || limit > MAX_LIST) {
            throw KmsException.validation("1 validation error detected: Value '" + limit + "' at 'limit' failed to satisfy constraint: Member must have value "
                    + (limit < 1 ? "greater than or equal to 1" : "less than or equal to 1000"));
        }
        return limit;
    }

    // ---- aliases ----

    private ObjectNode createAlias(ObjectNode in, String account, boolean create) throws KmsException {
        String alias = aliasName(in);
        KeyCrypto.Resolved target = crypto.resolve(account, required(in, "TargetKeyId"));
        if (!target.account().equals(account)) {
            throw KmsException.keyNotFound(target.arn()); // an alias names a key of its own account
        }
        long now = crypto.clock.millis();
        crypto.keys.write(s -> {
            KmsState.Alias old = s.alias(account, alias);
            if (create && old == null && s.aliasesOf(account).size() >= MAX_KEYS_PER_ACCOUNT) {
                throw new KmsException("LimitExceededException", "The request was rejected because a quota was exceeded.");
            }
            if (create && old != null) {
                throw new KmsException("AlreadyExistsException", "An alias with the name " + s.aliasArn(account, alias) + " already exists");
            }
            if (!create && old == null) {
                throw KmsException.aliasNotFound(s.aliasArn(account, alias));
            }
            if (KmsKey.PENDING_DELETION.equals(s.key(target.keyId()).state)) {
                throw KmsException.pendingDeletion(target.arn());
            }
            return new KmsCommand(create ? "CreateAlias" : "UpdateAlias", account, target.keyId(), alias, now, null, null, null, null, 0, null, null);
        });
        return JSON.createObjectNode();
    }

    private static String aliasName(ObjectNode in) throws KmsException {
        String alias = required(in, "AliasName");
        if (alias.length() > 256) {
            throw KmsException.validation("1 validation error detected: Value at 'aliasName' failed to satisfy constraint: Member must have length less than or equal to 256");
        }
        if (!ALIAS_NAME.matcher(alias).matches()) {
            throw KmsException.validation("1 validation error detected: Value '" + alias + "' at 'aliasName' failed to satisfy constraint: Member must satisfy regular expression pattern: ^[a-zA-Z0-9:/_-]+$");
        }
        if (!alias.startsWith("alias/")) {
            throw KmsException.validation("Alias must start with the prefix \"alias/\". Please see https://docs.aws.amazon.com/kms/latest/developerguide/kms-alias.html");
        }
        if (alias.startsWith("alias/aws/")) {
            throw new KmsException("NotAuthorizedException", "Cannot create, update or delete an alias with the reserved prefix \"alias/aws/\"");
        }
        return alias;
    }

    private ObjectNode deleteAlias(ObjectNode in, String account) throws KmsException {
        String alias = aliasName(in);
        long now = crypto.clock.millis();
        crypto.keys.write(s -> {
            if (s.alias(account, alias) == null) {
                throw KmsException.aliasNotFound(s.aliasArn(account, alias));
            }
            return new KmsCommand("DeleteAlias", account, null, alias, now, null, null, null, null, 0, null, null);
        });
        return JSON.createObjectNode();
    }

    private ObjectNode listAliases(ObjectNode in, String account) throws KmsException {
        int limit = limit(in);
        String marker = text(in, "Marker", null);
        String keyFilter = in.hasNonNull("KeyId") ? crypto.resolve(account, in.get("KeyId").asText()).keyId() : null;
        return crypto.keys.read(s -> {
            List<KmsState.Alias> all = new ArrayList<>();
            for (KmsState.Alias a : s.aliasesOf(account)) {
                if (keyFilter == null || keyFilter.equals(a.keyId())) {
                    all.add(a);
                }
            }
            int from = start(marker, all.stream().map(KmsState.Alias::name).toList());
            ObjectNode out = JSON.createObjectNode();
            ArrayNode list = out.putArray("Aliases");
            for (int i = from; i < Math.min(all.size(), from + limit); i++) {
                KmsState.Alias a = all.get(i);
                list.addObject().put("AliasName", a.name()).put("AliasArn", s.aliasArn(account, a.name()))
                        .put("TargetKeyId", a.keyId()).put("CreationDate", a.created() / 1000.0)
                        .put("LastUpdatedDate", a.updated() / 1000.0);
            }
            page(out, all.size() > from + limit ? all.get(from + limit).name() : null);
            return out;
        });
    }

    // ---- policies, state, rotation, tags ----

    private KeyCrypto.Resolved ownKey(ObjectNode in, String account) throws KmsException {
        return crypto.resolve(account, required(in, "KeyId"));
    }

    private static void policyName(ObjectNode in) throws KmsException {
        String name = text(in, "PolicyName", "default");
        if (!name.equals("default")) {
            throw new KmsException("NotFoundException", "No such policy exists");
        }
    }

    private ObjectNode getKeyPolicy(ObjectNode in, String account) throws KmsException {
        KeyCrypto.Resolved k = ownKey(in, account);
        policyName(in);
        ObjectNode out = JSON.createObjectNode();
        String policy = crypto.keys.read(s -> s.key(k.keyId()).policy);
        out.put("Policy", policy);
        out.put("PolicyName", "default");
        return out;
    }

    private ObjectNode putKeyPolicy(ObjectNode in, String account) throws KmsException {
        KeyCrypto.Resolved k = ownKey(in, account);
        policyName(in);
        String policy = checkPolicy(required(in, "Policy"));
        long now = crypto.clock.millis();
        crypto.keys.write(s -> {
            if ("AWS".equals(s.key(k.keyId()).manager)) {
                throw new KmsException("NotAuthorizedException", "The operation is not allowed on an AWS managed key.");
            }
            return new KmsCommand("PutKeyPolicy", account, k.keyId(), null, now, null, null, policy, null, 0, null, null);
        });
        return JSON.createObjectNode();
    }

    private ObjectNode listKeyPolicies(ObjectNode in, String account) throws KmsException {
        ownKey(in, account);
        ObjectNode out = JSON.createObjectNode();
        out.putArray("PolicyNames").add("default");
        out.put("Truncated", false);
        return out;
    }

    private ObjectNode simple(String op, ObjectNode in, String account) throws KmsException {
        KeyCrypto.Resolved k = ownKey(in, account);
        long now = crypto.clock.millis();
        crypto.keys.write(s -> {
            KmsKey key = s.key(k.keyId());
            if (KmsKey.PENDING_DELETION.equals(key.state)) {
                throw KmsException.pendingDeletion(k.arn());
            }
            if ("AWS".equals(key.manager)) {
                throw new KmsException("NotAuthorizedException", "The operation is not allowed on an AWS managed key.");
            }
            return KmsCommand.of(op, account, k.keyId(), now);
        });
        return JSON.createObjectNode();
    }

    private ObjectNode scheduleDeletion(ObjectNode in, String account) throws KmsException {
        KeyCrypto.Resolved k = ownKey(in, account);
        int days = in.hasNonNull("PendingWindowInDays") ? in.get("PendingWindowInDays").asInt() : 30;
        if (days < 7 || days > 30) {
            throw KmsException.validation("1 validation error detected: Value '" + days + "' at 'pendingWindowInDays' failed to satisfy constraint: Member must have value "
                    + (days < 7 ? "greater than or equal to 7" : "less than or equal to 30"));
        }
        long deletion = crypto.clock.millis() + days * DAY_MILLIS;
        crypto.keys.write(s -> {
            KmsKey key = s.key(k.keyId());
            if (KmsKey.PENDING_DELETION.equals(key.state)) {
                throw KmsException.pendingDeletion(k.arn());
            }
            if ("AWS".equals(key.manager)) {
                throw new KmsException("NotAuthorizedException", "The operation is not allowed on an AWS managed key.");
            }
            return new KmsCommand("ScheduleKeyDeletion", account, k.keyId(), null, deletion, null, null, null, null, days, null, null);
        });
        ObjectNode out = JSON.createObjectNode();
        out.put("KeyId", k.arn());
        out.put("DeletionDate", deletion / 1000.0);
        out.put("KeyState", KmsKey.PENDING_DELETION);
        out.put("PendingWindowInDays", days);
        return out;
    }

    private ObjectNode cancelDeletion(ObjectNode in, String account) throws KmsException {
        KeyCrypto.Resolved k = ownKey(in, account);
        long now = crypto.clock.millis();
        crypto.keys.write(s -> {
            if (!KmsKey.PENDING_DELETION.equals(s.key(k.keyId()).state)) {
                throw new KmsException("KMSInvalidStateException", k.arn() + " is not pending deletion.");
            }
            return KmsCommand.of("CancelKeyDeletion", account, k.keyId(), now);
        });
        ObjectNode out = JSON.createObjectNode();
        out.put("KeyId", k.arn());
        return out;
    }

    private static TreeMap<String, String> tags(JsonNode node) throws KmsException {
        TreeMap<String, String> tags = new TreeMap<>();
        if (node == null || node.isNull()) {
            return tags;
        }
        for (JsonNode t : node) {
            String key = t.path("TagKey").asText("");
            if (key.isEmpty() || key.length() > 128 || t.path("TagValue").asText("").length() > 256) {
                throw KmsException.validation("1 validation error detected: Value at 'tags.member.tagKey' failed to satisfy constraint: Member must have length between 1 and 128");
            }
            if (key.startsWith("aws:")) {
                throw new KmsException("TagException", "Tags beginning with aws: are reserved");
            }
            if (tags.put(key, t.path("TagValue").asText("")) != null) {
                throw new KmsException("TagException", "Duplicate tag keys");
            }
        }
        if (tags.size() > MAX_TAGS) {
            throw new KmsException("TagException", "Too many tags");
        }
        return tags;
    }

    private ObjectNode tagResource(ObjectNode in, String account) throws KmsException {
        KeyCrypto.Resolved k = ownKey(in, account);
        TreeMap<String, String> tags = tags(in.get("Tags"));
        long now = crypto.clock.millis();
        crypto.keys.write(s -> {
            TreeMap<String, String> after = new TreeMap<>(s.key(k.keyId()).tags);
            after.putAll(tags);
            if (after.size() > MAX_TAGS) {
                throw new KmsException("TagException", "Too many tags");
            }
            return new KmsCommand("TagResource", account, k.keyId(), null, now, null, null, null, null, 0, tags, null);
        });
        return JSON.createObjectNode();
    }

    private ObjectNode untagResource(ObjectNode in, String account) throws KmsException {
        KeyCrypto.Resolved k = ownKey(in, account);
        List<String> keys = new ArrayList<>();
        in.path("TagKeys").forEach(t -> keys.add(t.asText()));
        long now = crypto.clock.millis();
        crypto.keys.write(s -> new KmsCommand("UntagResource", account, k.keyId(), null, now, null, null, null, null, 0, null, keys));
        return JSON.createObjectNode();
    }

    private ObjectNode listResourceTags(ObjectNode in, String account) throws KmsException {
        KeyCrypto.Resolved k = ownKey(in, account);
        return crypto.keys.read(s -> {
            ObjectNode out = JSON.createObjectNode();
            ArrayNode list = out.putArray("Tags");
            s.key(k.keyId()).tags.forEach((key, value) -> list.addObject().put("TagKey", key).put("TagValue", value));
            out.put("Truncated", false);
            return out;
        });
    }

    // ---- cryptography ----

    static Map<String, String> context(ObjectNode in, String field) throws KmsException {
        JsonNode n = in.get(field);
        if (n == null || n.isNull()) {
            return Map.of();
        }
        if (!n.isObject()) {
            throw new KmsException("SerializationException", "Unexpected value for " + field);
        }
        Map<String, String> out = new LinkedHashMap<>();
        var fields = n.fields();
        while (fields.hasNext()) {
            var e = fields.next();
            out.put(e.getKey(), e.getValue().asText());
        }
        return out;
    }

    private static byte[] blob(ObjectNode in, String field, int max) throws KmsException {
        String b64 = required(in, field);
        byte[] bytes;
        try {
            bytes = Base64.getDecoder().decode(b64);
        } catch (IllegalArgumentException e) {
            throw new KmsException("SerializationException", "Invalid base64 in " + field);
        }
        String name = Character.toLowerCase(field.charAt(0)) + field.substring(1);
        if (bytes.length < 1 || bytes.length > max) {
            throw KmsException.validation("1 validation error detected: Value at '" + name + "' failed to satisfy constraint: Member must have length "
                    + (bytes.length < 1 ? "greater than or equal to 1" : "less than or equal to " + max));
        }
        return bytes;
    }

    private static void dryRun(ObjectNode in) throws KmsException {
        if (in.path("DryRun").asBoolean(false)) {
            throw new KmsException("DryRunOperationException", "The request would have succeeded, but the DryRun option is set.");
        }
    }

    private ObjectNode encrypt(ObjectNode in, String account) throws KmsException {
        KeyCrypto.Resolved k = ownKey(in, account);
        byte[] plaintext = blob(in, "Plaintext", 4096);
        Map<String, String> context = context(in, "EncryptionContext");
        algorithm(in, "EncryptionAlgorithm");
        KeyCrypto.requireUsable(k);
        dryRun(in);
        ObjectNode out = JSON.createObjectNode();
        out.put("CiphertextBlob", crypto.encrypt(k, plaintext, context));
        out.put("KeyId", k.arn());
        out.put("EncryptionAlgorithm", "SYMMETRIC_DEFAULT");
        return out;
    }

    private static void algorithm(ObjectNode in, String field) throws KmsException {
        String a = text(in, field, "SYMMETRIC_DEFAULT");
        if (!a.equals("SYMMETRIC_DEFAULT")) {
            throw new KmsException("InvalidKeyUsageException", "The encryption algorithm " + a + " is not compatible with the type of key.");
        }
    }

    /** The key a blob names, checked against the request's KeyId when it gives one. */
    private KeyCrypto.Resolved sourceKey(ObjectNode in, String field, byte[] bytes, String account) throws KmsException {
        CiphertextBlob blob = CiphertextBlob.parse(bytes);
        KeyCrypto.Resolved k = crypto.keyOf(blob);
        if (in.hasNonNull(field)) {
            KeyCrypto.Resolved named = crypto.resolve(account, in.get(field).asText());
            if (!named.keyId().equals(k.keyId())) {
                throw new KmsException("IncorrectKeyException", "The key ID in the request does not identify a CMK that can perform this operation.");
            }
        }
        return k;
    }

    private ObjectNode decrypt(ObjectNode in, String account) throws KmsException {
        byte[] bytes = blob(in, "CiphertextBlob", 6144);
        algorithm(in, "EncryptionAlgorithm");
        KeyCrypto.Resolved k = sourceKey(in, "KeyId", bytes, account);
        byte[] plain = crypto.decrypt(k, CiphertextBlob.parse(bytes), context(in, "EncryptionContext"));
        dryRun(in);
        ObjectNode out = JSON.createObjectNode();
        out.put("KeyId", k.arn());
        out.put("Plaintext", plain);
        out.put("EncryptionAlgorithm", "SYMMETRIC_DEFAULT");
        return out;
    }

    private ObjectNode reEncrypt(ObjectNode in, String account) throws KmsException {
        byte[] bytes = blob(in, "CiphertextBlob", 6144);
        KeyCrypto.Resolved source = sourceKey(in, "SourceKeyId", bytes, account);
        byte[] plain = crypto.decrypt(source, CiphertextBlob.parse(bytes), context(in, "SourceEncryptionContext"));
        KeyCrypto.Resolved dest = crypto.resolve(account, required(in, "DestinationKeyId"));
        byte[] sealed = crypto.encrypt(dest, plain, context(in, "DestinationEncryptionContext"));
        dryRun(in);
        ObjectNode out = JSON.createObjectNode();
        out.put("CiphertextBlob", sealed);
        out.put("SourceKeyId", source.arn());
        out.put("KeyId", dest.arn());
        out.put("SourceEncryptionAlgorithm", "SYMMETRIC_DEFAULT");
        out.put("DestinationEncryptionAlgorithm", "SYMMETRIC_DEFAULT");
        return out;
    }

    private ObjectNode generateDataKey(ObjectNode in, String account, boolean withPlaintext) throws KmsException {
        KeyCrypto.Resolved k = ownKey(in, account);
        int bytes = dataKeyBytes(in);
        Map<String, String> context = context(in, "EncryptionContext");
        KeyCrypto.requireUsable(k);
        dryRun(in);
        byte[] plain = crypto.random.apply(bytes);
        ObjectNode out = JSON.createObjectNode();
        out.put("CiphertextBlob", crypto.encrypt(k, plain, context));
        if (withPlaintext) {
            out.put("Plaintext", plain);
        }
        out.put("KeyId", k.arn());
        return out;
    }

    private static int dataKeyBytes(ObjectNode in) throws KmsException {
        boolean spec = in.hasNonNull("KeySpec");
        boolean number = in.hasNonNull("NumberOfBytes");
        if (spec == number) {
            throw KmsException.validation("Please specify either number of bytes or key spec.");
        }
        if (spec) {
            return switch (in.get("KeySpec").asText()) {
                case "AES_256" -> 32;
                case "AES_128" -> 16;
                default -> throw KmsException.validation("1 validation error detected: Value '" + in.get("KeySpec").asText()
                        + "' at 'keySpec' failed to satisfy constraint: Member must satisfy enum value set: [AES_256, AES_128]");
            };
        }
        return numberOfBytes(in);
    }

    private static int numberOfBytes(ObjectNode in) throws KmsException {
        int n = in.path("NumberOfBytes").asInt(0);
        if (n < 1 || n > 1024) {
            throw KmsException.validation("1 validation error detected: Value '" + n + "' at 'numberOfBytes' failed to satisfy constraint: Member must have value "
                    + (n < 1 ? "greater than or equal to 1" : "less than or equal to 1024"));
        }
        return n;
    }

    private ObjectNode generateRandom(ObjectNode in) throws KmsException {
        int n = in.hasNonNull("NumberOfBytes") ? numberOfBytes(in) : 32;
        ObjectNode out = JSON.createObjectNode();
        out.put("Plaintext", crypto.random.apply(n));
        return out;
    }

    // ---- fields ----

    static String text(ObjectNode in, String field, String otherwise) {
        JsonNode n = in.get(field);
        return n == null || n.isNull() ? otherwise : n.asText();
    }

    static String required(ObjectNode in, String field) throws KmsException {
        String v = text(in, field, null);
        if (v == null) {
            String name = Character.toLowerCase(field.charAt(0)) + field.substring(1);
            throw KmsException.validation("1 validation error detected: Value null at '" + name + "' failed to satisfy constraint: Member must not be null");
        }
        return v;
    }
}
