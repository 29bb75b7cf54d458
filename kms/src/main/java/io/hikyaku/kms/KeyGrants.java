package io.hikyaku.kms;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Grants: CreateGrant, ListGrants, ListRetirableGrants, RetireGrant, RevokeGrant, and what a grant allows. A grant
 * takes part in authorization as an Allow statement added to its key's policy for the shared evaluator
 * ({@link #policyWithGrants}): its grantee, its operations as {@code kms:} actions, its encryption context
 * constraints as conditions. Grants apply at once here, so a grant token is accepted (checked for form) and never
 * needed.
 */
final class KeyGrants {

    private static final List<String> OPERATIONS = List.of("Decrypt", "Encrypt", "GenerateDataKey", "GenerateDataKeyWithoutPlaintext",
            "ReEncryptFrom", "ReEncryptTo", "Sign", "Verify", "GetPublicKey", "CreateGrant", "RetireGrant", "DescribeKey",
            "GenerateDataKeyPair", "GenerateDataKeyPairWithoutPlaintext", "GenerateMac", "VerifyMac", "DeriveSharedSecret");
    /** Operations a symmetric encryption key cannot perform (a grant for them is refused). */
    private static final Set<String> NOT_SYMMETRIC = Set.of("Sign", "Verify", "GetPublicKey", "GenerateMac", "VerifyMac", "DeriveSharedSecret");
    /** Operations with an encryption context: the only ones a constraint may accompany. */
    private static final Set<String> WITH_CONTEXT = Set.of("Decrypt", "Encrypt", "GenerateDataKey", "GenerateDataKeyWithoutPlaintext",
            "ReEncryptFrom", "ReEncryptTo", "GenerateDataKeyPair", "GenerateDataKeyPairWithoutPlaintext", "CreateGrant", "RetireGrant");
    private static final Pattern PRINCIPAL = Pattern.compile(
            "^(arn:aws:iam::\\d{12}:(root|user/[\\w+=,.@/-]+|role/[\\w+=,.@/-]+)|arn:aws:sts::\\d{12}:(assumed-role|federated-user)/[\\w+=,.@/-]+|[a-z0-9.-]+\\.amazonaws\\.com)$");
    private static final Pattern NAME = Pattern.compile("^[a-zA-Z0-9:/_-]+$");
    /** AWS's quota of grants per key. */
    static final int MAX_GRANTS_PER_KEY = 50_000;
    static final int MAX_GRANT_TOKENS = 10;

    private final KeyCrypto crypto;

    KeyGrants(KeyCrypto crypto) {
        this.crypto = crypto;
    }

    // ---- tokens ----

    /** A grant token: names the key and the grant (opaque to clients; a random part makes each one distinct). */
    record Token(String keyArn, String grantId) {
        private static final String PREFIX = "HKGT1";

        static Token parse(String token) throws KmsException {
            try {
                if (token.startsWith(PREFIX)) {
                    String[] p = new String(Base64.getUrlDecoder().decode(token.substring(PREFIX.length())), StandardCharsets.UTF_8).split("\n");
                    if (p.length == 3 && p[0].startsWith("arn:") && p[1].length() == 64) {
                        return new Token(p[0], p[1]);
                    }
                }
            } catch (IllegalArgumentException malformed) {
                // answered below
            }
            throw new KmsException("InvalidGrantTokenException", "The grant token is not valid.");
        }

        String render(byte[] nonce) {
            return PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(
                    (keyArn + "\n" + grantId + "\n" + HexFormat.of().formatHex(nonce)).getBytes(StandardCharsets.UTF_8));
        }
    }

    /** GrantTokens of any request: at most 10, each 1-8192 characters and one this server issued. */
    static void checkGrantTokens(ObjectNode in) throws KmsException {
        JsonNode tokens = in.get("GrantTokens");
        if (tokens == null || tokens.isNull()) {
            return;
        }
        if (!tokens.isArray() || tokens.size() > MAX_GRANT_TOKENS) {
            throw KmsException.validation("1 validation error detected: Value at 'grantTokens' failed to satisfy constraint: "
                    + "Member must have length less than or equal to " + MAX_GRANT_TOKENS);
        }
        for (JsonNode t : tokens) {
            String token = t.asText("");
            if (token.isEmpty() || token.length() > 8192) {
                throw KmsException.validation("1 validation error detected: Value at 'grantTokens' failed to satisfy constraint: "
                        + "Member must satisfy constraint: [Member must have length less than or equal to 8192, Member must have length greater than or equal to 1]");
            }
            Token.parse(token);
        }
    }

    // ---- operations ----

    ObjectNode create(ObjectNode in, String account) throws KmsException {
        KeyCrypto.Resolved k = crypto.resolve(account, KmsApi.required(in, "KeyId"));
        String grantee = principal(in, "GranteePrincipal", true);
        String retiring = principal(in, "RetiringPrincipal", false);
        List<String> operations = operations(in);
        TreeMap<String, String> subset = null;
        TreeMap<String, String> equals = null;
        JsonNode constraints = in.get("Constraints");
        if (constraints != null && !constraints.isNull()) {
            subset = constraint(constraints, "EncryptionContextSubset");
            equals = constraint(constraints, "EncryptionContextEquals");
            if ((subset != null || equals != null) && !WITH_CONTEXT.containsAll(operations)) {
                throw KmsException.validation("Grant constraints are supported only on grant operations that include an encryption context; "
                        + operations.stream().filter(o -> !WITH_CONTEXT.contains(o)).toList() + " do not.");
            }
        }
        String name = KmsApi.text(in, "Name", null);
        if (name != null && (name.isEmpty() || name.length() > 256 || !NAME.matcher(name).matches())) {
            throw KmsException.validation("1 validation error detected: Value '" + name + "' at 'name' failed to satisfy constraint: "
                    + "Member must satisfy regular expression pattern: ^[a-zA-Z0-9:/_-]+$");
        }
        KeyCrypto.requireUsable(k);
        if (in.path("DryRun").asBoolean(false)) {
            throw new KmsException("DryRunOperationException", "The request would have succeeded, but the DryRun option is set.");
        }
        Grant proposed = new Grant(HexFormat.of().formatHex(crypto.random.apply(32)), k.keyId(), name, grantee, retiring,
                operations, subset, equals, account, crypto.clock.millis());
        String json = render(proposed);
        String[] id = {proposed.grantId()};
        crypto.keys.write(s -> {
            KmsKey key = s.key(k.keyId());
            for (Grant g : key.grants.values()) {
                if (proposed.sameAs(g)) { // CreateGrant is idempotent on its name and parameters
                    id[0] = g.grantId();
                    return null;
                }
            }
            if (key.grants.size() >= MAX_GRANTS_PER_KEY) {
                throw new KmsException("LimitExceededException", "The request was rejected because a quota was exceeded: "
                        + k.arn() + " has " + MAX_GRANTS_PER_KEY + " grants.");
            }
            return new KmsCommand("CreateGrant", account, k.keyId(), null, proposed.created(), null, json, null, null, 0, null, null);
        });
        ObjectNode out = KmsApi.JSON.createObjectNode();
        out.put("GrantToken", new Token(k.arn(), id[0]).render(crypto.random.apply(16)));
        out.put("GrantId", id[0]);
        return out;
    }

    ObjectNode list(ObjectNode in, String account) throws KmsException {
        KeyCrypto.Resolved k = crypto.resolve(account, KmsApi.required(in, "KeyId"));
        int limit = KmsApi.limit(in);
        String marker = KmsApi.text(in, "Marker", null);
        String grantId = KmsApi.text(in, "GrantId", null);
        String grantee = KmsApi.text(in, "GranteePrincipal", null);
        return crypto.keys.read(s -> {
            KmsKey key = s.key(k.keyId());
            List<Grant> all = new ArrayList<>();
            for (Grant g : key.grants.values()) {
                if ((grantId == null || grantId.equals(g.grantId())) && (grantee == null || grantee.equals(g.granteePrincipal()))) {
                    all.add(g);
                }
            }
            return page(s, all, marker, limit);
        });
    }

    /** The grants whose retiring principal is the one named, on the caller's account's keys or for its principals. */
    ObjectNode listRetirable(ObjectNode in, String account) throws KmsException {
        String retiring = KmsApi.required(in, "RetiringPrincipal");
        int limit = KmsApi.limit(in);
        String marker = KmsApi.text(in, "Marker", null);
        return crypto.keys.read(s -> {
            List<Grant> all = new ArrayList<>();
            for (KmsKey key : s.everyAccountKey()) {
                for (Grant g : key.grants.values()) {
                    if (retiring.equals(g.retiringPrincipal()) && (key.account.equals(account) || retiring.contains(":" + account + ":"))) {
                        all.add(g);
                    }
                }
            }
            return page(s, all, marker, limit);
        });
    }

    /** RetireGrant: by GrantToken, or by KeyId (the key's ARN) and GrantId; authorized by the grant itself. */
    ObjectNode retire(ObjectNode in, String account) throws KmsException {
        String keyReference;
        String grantId;
        if (in.hasNonNull("GrantToken")) {
            Token t = Token.parse(in.get("GrantToken").asText());
            keyReference = t.keyArn();
            grantId = t.grantId();
        } else if (in.hasNonNull("KeyId") && in.hasNonNull("GrantId")) {
            keyReference = in.get("KeyId").asText();
            grantId = in.get("GrantId").asText();
            if (!keyReference.startsWith("arn:")) {
                throw new KmsException("InvalidArnException", "KeyId must be the key ARN of the key the grant is on: " + keyReference);
            }
        } else {
            throw KmsException.validation("Specify either GrantToken, or both KeyId and GrantId.");
        }
        return remove("RetireGrant", account, keyReference, grantId, in);
    }

    ObjectNode revoke(ObjectNode in, String account) throws KmsException {
        return remove("RevokeGrant", account, KmsApi.required(in, "KeyId"), KmsApi.required(in, "GrantId"), in);
    }

    private ObjectNode remove(String op, String account, String keyReference, String grantId, ObjectNode in) throws KmsException {
        KeyCrypto.Resolved k = crypto.resolve(account, keyReference);
        if (in.path("DryRun").asBoolean(false)) {
            throw new KmsException("DryRunOperationException", "The request would have succeeded, but the DryRun option is set.");
        }
        long now = crypto.clock.millis();
        crypto.keys.write(s -> {
            if (!s.key(k.keyId()).grants.containsKey(grantId)) {
                throw new KmsException("NotFoundException", "Grant ID " + grantId + " not found for key " + k.arn());
            }
            return new KmsCommand(op, account, k.keyId(), null, now, null, grantId, null, null, 0, null, null);
        });
        return KmsApi.JSON.createObjectNode();
    }

    // ---- authorization ----

    /** The key's policy with one Allow statement per grant (RetireGrant excepted: {@link #policyForRetiring}). */
    static String policyWithGrants(KmsKey key) {
        if (key.grants.isEmpty()) {
            return key.policy;
        }
        List<ObjectNode> statements = new ArrayList<>();
        for (Grant g : key.grants.values()) {
            List<String> actions = g.operations().stream().filter(o -> !o.equals("RetireGrant")).map(o -> "kms:" + o).toList();
            if (!actions.isEmpty()) {
                statements.add(statement(g, List.of(g.granteePrincipal()), actions, true));
            }
        }
        return withStatements(key.policy, statements);
    }

    /**
     * For RetireGrant of one grant: the key's policy plus kms:RetireGrant for that grant's retiring principal and, when
     * the grant lists RetireGrant, its grantee (a grant lets retire only itself).
     */
    static String policyForRetiring(KmsKey key, String grantId) {
        Grant g = grantId == null ? null : key.grants.get(grantId);
        if (g == null) {
            return key.policy;
        }
        List<String> who = new ArrayList<>();
        if (g.retiringPrincipal() != null) {
            who.add(g.retiringPrincipal());
        }
        if (g.operations().contains("RetireGrant")) {
            who.add(g.granteePrincipal());
        }
        return who.isEmpty() ? key.policy : withStatements(key.policy, List.of(statement(g, who, List.of("kms:RetireGrant"), false)));
    }

    /** The grant a RetireGrant request names (by token, or GrantId), or null. */
    static String grantIdOf(ObjectNode in) {
        if (in.hasNonNull("GrantToken")) {
            try {
                return Token.parse(in.get("GrantToken").asText()).grantId();
            } catch (KmsException malformed) {
                return null;
            }
        }
        return KmsApi.text(in, "GrantId", null);
    }

    private static ObjectNode statement(Grant g, List<String> principals, List<String> actions, boolean constrained) {
        ObjectNode st = KmsApi.JSON.createObjectNode();
        st.put("Sid", "Grant" + g.grantId());
        st.put("Effect", "Allow");
        ObjectNode principal = st.putObject("Principal");
        for (String p : principals) {
            String kind = p.startsWith("arn:") ? "AWS" : "Service";
            (principal.has(kind) ? (ArrayNode) principal.get(kind) : principal.putArray(kind)).add(p);
        }
        ArrayNode a = st.putArray("Action");
        actions.forEach(a::add);
        st.put("Resource", "*");
        TreeMap<String, String> pairs = g.contextEquals() != null ? g.contextEquals() : g.contextSubset();
        if (constrained && pairs != null) {
            ObjectNode condition = st.putObject("Condition");
            if (!pairs.isEmpty()) {
                ObjectNode eq = condition.putObject("StringEquals");
                pairs.forEach((k, v) -> eq.put("kms:EncryptionContext:" + k, v));
            }
            if (g.contextEquals() != null) { // exactly these keys: no other key may be present
                ArrayNode keys = condition.putObject("ForAllValues:StringEquals").putArray("kms:EncryptionContextKeys");
                pairs.keySet().forEach(keys::add);
                if (pairs.isEmpty()) {
                    condition.putObject("Null").put("kms:EncryptionContextKeys", "true");
                }
            }
        }
        return st;
    }

    private static String withStatements(String policy, List<ObjectNode> statements) {
        try {
            JsonNode parsed = KmsApi.JSON.readTree(policy);
            if (!(parsed instanceof ObjectNode doc)) {
                return policy;
            }
            JsonNode existing = doc.get("Statement");
            ArrayNode all = KmsApi.JSON.createArrayNode();
            if (existing != null && existing.isArray()) {
                all.addAll((ArrayNode) existing);
            } else if (existing != null) {
                all.add(existing);
            }
            statements.forEach(all::add);
            doc.set("Statement", all);
            return KmsApi.JSON.writeValueAsString(doc);
        } catch (IOException malformed) {
            return policy; // the evaluator refuses it as it is
        }
    }

    // ---- fields and shapes ----

    private static String principal(ObjectNode in, String field, boolean required) throws KmsException {
        String p = required ? KmsApi.required(in, field) : KmsApi.text(in, field, null);
        if (p != null && (p.isEmpty() || p.length() > 256 || !PRINCIPAL.matcher(p).matches())) {
            throw KmsException.validation("Invalid principal: " + p + " (" + field + ")");
        }
        return p;
    }

    private static List<String> operations(ObjectNode in) throws KmsException {
        JsonNode ops = in.get("Operations");
        if (ops == null || ops.isNull()) {
            throw KmsException.validation("1 validation error detected: Value null at 'operations' failed to satisfy constraint: Member must not be null");
        }
        List<String> out = new ArrayList<>();
        for (JsonNode o : ops) {
            String op = o.asText();
            if (!OPERATIONS.contains(op)) {
                throw KmsException.validation("1 validation error detected: Value '[" + op + "]' at 'operations' failed to satisfy constraint: "
                        + "Member must satisfy constraint: [Member must satisfy enum value set: " + new java.util.TreeSet<>(OPERATIONS) + "]");
            }
            if (NOT_SYMMETRIC.contains(op)) {
                throw KmsException.validation("The grant operation " + op + " is not valid for a symmetric encryption KMS key.");
            }
            if (!out.contains(op)) {
                out.add(op);
            }
        }
        if (out.isEmpty()) {
            throw KmsException.validation("1 validation error detected: Value '[]' at 'operations' failed to satisfy constraint: Member must have length greater than or equal to 1");
        }
        return out;
    }

    private static TreeMap<String, String> constraint(JsonNode constraints, String field) throws KmsException {
        JsonNode n = constraints.get(field);
        if (n == null || n.isNull()) {
            return null;
        }
        if (!n.isObject()) {
            throw new KmsException("SerializationException", "Unexpected value for " + field);
        }
        TreeMap<String, String> out = new TreeMap<>();
        var fields = n.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> e = fields.next();
            if (e.getValue().asText().length() > 384) {
                throw KmsException.validation("The encryption context value in a grant constraint cannot exceed 384 characters.");
            }
            out.put(e.getKey(), e.getValue().asText());
        }
        if (out.size() > 8) {
            throw KmsException.validation("A grant constraint can include at most 8 encryption context pairs.");
        }
        return out;
    }

    private static ObjectNode page(KmsState s, List<Grant> all, String marker, int limit) throws KmsException {
        int from = KmsApi.start(marker, all.stream().map(Grant::grantId).toList());
        ObjectNode out = KmsApi.JSON.createObjectNode();
        ArrayNode list = out.putArray("Grants");
        for (int i = from; i < Math.min(all.size(), from + limit); i++) {
            Grant g = all.get(i);
            KmsKey key = s.key(g.keyId());
            ObjectNode e = list.addObject();
            e.put("KeyId", key.arn).put("GrantId", g.grantId());
            if (g.name() != null) {
                e.put("Name", g.name());
            }
            e.put("CreationDate", g.created() / 1000.0).put("GranteePrincipal", g.granteePrincipal());
            if (g.retiringPrincipal() != null) {
                e.put("RetiringPrincipal", g.retiringPrincipal());
            }
            e.put("IssuingAccount", "arn:aws:iam::" + g.issuingAccount() + ":root");
            ArrayNode ops = e.putArray("Operations");
            g.operations().forEach(ops::add);
            if (g.contextSubset() != null || g.contextEquals() != null) {
                ObjectNode c = e.putObject("Constraints");
                if (g.contextSubset() != null) {
                    ObjectNode m = c.putObject("EncryptionContextSubset");
                    g.contextSubset().forEach(m::put);
                }
                if (g.contextEquals() != null) {
                    ObjectNode m = c.putObject("EncryptionContextEquals");
                    g.contextEquals().forEach(m::put);
                }
            }
        }
        KmsApi.page(out, all.size() > from + limit ? all.get(from + limit).grantId() : null);
        return out;
    }

    static String render(Grant g) {
        try {
            return KmsApi.JSON.writeValueAsString(g);
        } catch (IOException impossible) {
            throw new IllegalStateException(impossible);
        }
    }

    static Grant parse(String json) {
        try {
            return KmsApi.JSON.readValue(json, Grant.class);
        } catch (IOException e) {
            throw new IllegalArgumentException("damaged grant in a CreateGrant command: " + e.getMessage(), e);
        }
    }
}
