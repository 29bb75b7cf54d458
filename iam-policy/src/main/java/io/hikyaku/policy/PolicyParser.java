package io.hikyaku.policy;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The policy grammar: JSON (no duplicate keys, nothing after the document) whose elements are
 * checked as IAM checks them. Every refusal names the element and the value at fault. A queue
 * policy ({@link PolicyKind#RESOURCE}) is parsed as SQS accepts it: a Resource that is not an ARN,
 * a statement without Resource and an ARN condition value that is not an ARN are kept (SQS stores
 * such documents as given) and simply match nothing, so they never allow and never deny.
 */
final class PolicyParser {

    private static final JsonMapper JSON = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private static final Set<String> TOP_LEVEL = Set.of("Version", "Id", "Statement");
    private static final Set<String> STATEMENT = Set.of("Sid", "Effect", "Principal", "NotPrincipal", "Action",
            "NotAction", "Resource", "NotResource", "Condition");
    private static final Set<String> PRINCIPAL_TYPES = Set.of("AWS", "Service", "Federated", "CanonicalUser");
    /** {@code service:action} with wildcards; the service prefix has no wildcard. */
    private static final Pattern ACTION = Pattern.compile("[A-Za-z0-9-]+:[A-Za-z0-9*?_-]+");
    /** The legacy SQS resource form {@code 123456789012/queue-name}. */
    private static final Pattern LEGACY_SQS_RESOURCE = Pattern.compile("(\\d{12}|\\*)/\\S+");
    /**
     * The longest single policy string (action, resource or condition value), in characters. AWS's
     * smallest policy quota is 2,048 characters (a user's inline policies); a bound here keeps the cost
     * of one wildcard match small whatever the document (see POLICY.md, "Limits").
     */
    static final int MAX_PATTERN_LENGTH = 2048;
    private static final String FOR_ANY = "ForAnyValue:";
    private static final String FOR_ALL = "ForAllValues:";
    private static final String IF_EXISTS = "IfExists";

    /** A condition value that is not an ARN (SQS accepts placeholders): no request value matches it. */
    private static final ConditionOperator.Value NO_ARN = (requestValue, context) -> false;

    private PolicyParser() {}

    static Policy parse(String json, PolicyKind kind) throws PolicyException {
        if (json == null || json.isBlank()) {
            throw new PolicyException("The policy document is empty");
        }
        JsonNode root;
        try {
            root = JSON.readTree(json);
        } catch (JsonProcessingException e) {
            throw new PolicyException("The policy document is not valid JSON: " + e.getOriginalMessage());
        }
        if (root == null || !root.isObject()) {
            throw new PolicyException("The policy document must be a JSON object");
        }
        checkFields(root, TOP_LEVEL, "policy");
        String version = optionalText(root, "Version");
        if (version != null && !version.equals(Policy.VERSION_2012) && !version.equals(Policy.VERSION_2008)) {
            throw new PolicyException("Invalid Version \"" + version + "\": must be 2012-10-17 or 2008-10-17");
        }
        boolean variables = Policy.VERSION_2012.equals(version);
        String id = optionalText(root, "Id");
        JsonNode statementNode = root.get("Statement");
        if (statementNode == null) {
            throw new PolicyException("Missing required element Statement");
        }
        List<JsonNode> nodes = new ArrayList<>();
        if (statementNode.isObject()) {
            nodes.add(statementNode);
        } else if (statementNode.isArray()) {
            statementNode.forEach(nodes::add);
        } else {
            throw new PolicyException("Statement must be an object or an array of objects");
        }
        List<Statement> statements = new ArrayList<>();
        Set<String> sids = new HashSet<>();
        for (int i = 0; i < nodes.size(); i++) {
            Statement s = statement(nodes.get(i), i + 1, kind, variables);
            if (s.sid() != null && !s.sid().isEmpty() && !sids.add(s.sid())) {
                throw new PolicyException("Duplicate Sid \"" + s.sid() + "\": statement ids must be unique");
            }
            statements.add(s);
        }
        return new Policy(kind, version, id, statements);
    }

    private static Statement statement(JsonNode node, int n, PolicyKind kind, boolean variables) throws PolicyException {
        String where = "statement " + n;
        if (!node.isObject()) {
            throw new PolicyException("Statement " + n + " must be a JSON object");
        }
        checkFields(node, STATEMENT, where);
        String sid = optionalText(node, "Sid");
        String effectText = optionalText(node, "Effect");
        if (effectText == null) {
            throw new PolicyException("Missing required element Effect in " + where);
        }
        Effect effect = switch (effectText) {
            case "Allow" -> Effect.ALLOW;
            case "Deny" -> Effect.DENY;
            default -> throw new PolicyException("Invalid Effect \"" + effectText + "\" in " + where + ": must be Allow or Deny");
        };

        JsonNode principal = node.get("Principal");
        JsonNode notPrincipal = node.get("NotPrincipal");
        Principals principals = null;
        if (principal != null || notPrincipal != null) {
            if (!kind.principalRequired) {
                throw new PolicyException("Principal and NotPrincipal are not allowed in an identity or session policy (" + where + ")");
            }
            if (principal != null && notPrincipal != null) {
                throw new PolicyException("Only one of Principal and NotPrincipal is allowed in " + where);
            }
            if (notPrincipal != null && (effect != Effect.DENY || kind == PolicyKind.TRUST)) {
                throw new PolicyException("NotPrincipal is supported only with Effect Deny in a resource policy ("
                        + where + ")");
            }
            principals = principals(principal != null ? principal : notPrincipal,
                    principal != null ? "Principal" : "NotPrincipal", where);
        } else if (kind.principalRequired) {
            throw new PolicyException("Missing required element Principal in " + where);
        }

        JsonNode action = node.get("Action");
        JsonNode notAction = node.get("NotAction");
        if ((action == null) == (notAction == null)) {
            throw new PolicyException("Exactly one of Action and NotAction is required in " + where);
        }
        String actionName = action != null ? "Action" : "NotAction";
        List<Wildcard> actions = new ArrayList<>();
        for (String a : texts(action != null ? action : notAction, actionName, where)) {
            if (!a.equals("*") && !ACTION.matcher(a).matches()) {
                throw new PolicyException("Invalid " + actionName + " \"" + a + "\" in " + where
                        + ": must be \"*\" or service:action (e.g. sqs:SendMessage)");
            }
            actions.add(Wildcard.compile(bounded(a, actionName, where), true, false));
        }

        JsonNode resource = node.get("Resource");
        JsonNode notResource = node.get("NotResource");
        if (resource != null && notResource != null) {
            throw new PolicyException("Only one of Resource and NotResource is allowed in " + where);
        }
        List<Wildcard> resources = null;
        if (resource != null || notResource != null) {
            String resourceName = resource != null ? "Resource" : "NotResource";
            resources = new ArrayList<>();
            for (String r : texts(resource != null ? resource : notResource, resourceName, where)) {
                Wildcard w = resource(r, resourceName, where, kind, variables);
                if (w != null) {
                    resources.add(w);
                }
            }
        } else if (kind == PolicyKind.RESOURCE) {
            resources = List.of(); // SQS accepts a statement without Resource; it never matches (below)
        } else if (kind.resourceRequired) {
            throw new PolicyException("Exactly one of Resource and NotResource is required in " + where);
        }

        List<Condition> conditions = conditions(node.get("Condition"), where, variables, kind);
        return new Statement(sid, effect, principals, notPrincipal != null, actions, notAction != null, resources,
                notResource != null, conditions);
    }

    private static Wildcard resource(String r, String element, String where, PolicyKind kind, boolean variables)
            throws PolicyException {
        boolean arn = r.startsWith("arn:") && r.split(":", 6).length == 6;
        boolean legacy = kind == PolicyKind.RESOURCE && LEGACY_SQS_RESOURCE.matcher(r).matches();
        if (!r.equals("*") && !arn && !legacy) {
            if (kind == PolicyKind.RESOURCE) {
                return null; // SQS stores it; it names no queue, so it matches none
            }
            throw new PolicyException("Invalid " + element + " \"" + r + "\" in " + where
                    + ": must be \"*\" or an ARN (arn:partition:service:region:account:resource)");
        }
        return Wildcard.compile(bounded(r, element, where), true, variables);
    }

    private static String bounded(String value, String element, String where) throws PolicyException {
        if (value.length() > MAX_PATTERN_LENGTH) {
            throw new PolicyException(element + " of " + value.length() + " characters in " + where
                    + " is longer than the " + MAX_PATTERN_LENGTH + " allowed");
        }
        return value;
    }

    private static Principals principals(JsonNode node, String element, String where) throws PolicyException {
        if (node.isTextual()) {
            if (!node.asText().equals("*")) {
                throw new PolicyException("Invalid " + element + " \"" + node.asText() + "\" in " + where
                        + ": a principal string must be \"*\"; name others as {\"AWS\": ...}");
            }
            return Principals.everyone();
        }
        if (!node.isObject() || node.isEmpty()) {
            throw new PolicyException(element + " in " + where + " must be \"*\" or an object such as {\"AWS\": ...}");
        }
        checkFields(node, PRINCIPAL_TYPES, element + " of " + where);
        List<String> aws = node.has("AWS") ? texts(node.get("AWS"), element + ".AWS", where) : List.of();
        List<String> service = node.has("Service") ? texts(node.get("Service"), element + ".Service", where) : List.of();
        List<String> federated = node.has("Federated") ? texts(node.get("Federated"), element + ".Federated", where) : List.of();
        List<String> canonical = node.has("CanonicalUser")
                ? texts(node.get("CanonicalUser"), element + ".CanonicalUser", where) : List.of();
        try {
            return Principals.of(aws, service, federated, canonical);
        } catch (PolicyException e) {
            throw new PolicyException(e.getMessage() + " in " + element + " of " + where);
        }
    }

    private static List<Condition> conditions(JsonNode node, String where, boolean variables, PolicyKind kind)
            throws PolicyException {
        if (node == null) {
            return List.of();
        }
        if (!node.isObject()) {
            throw new PolicyException("Condition in " + where + " must be an object of operators");
        }
        List<Condition> out = new ArrayList<>();
        Iterator<Map.Entry<String, JsonNode>> operators = node.fields();
        while (operators.hasNext()) {
            Map.Entry<String, JsonNode> operatorEntry = operators.next();
            String written = operatorEntry.getKey();
            String name = written;
            Condition.Qualifier qualifier = Condition.Qualifier.NONE;
            if (startsWithIgnoreCase(name, FOR_ANY)) {
                qualifier = Condition.Qualifier.FOR_ANY_VALUE;
                name = name.substring(FOR_ANY.length());
            } else if (startsWithIgnoreCase(name, FOR_ALL)) {
                qualifier = Condition.Qualifier.FOR_ALL_VALUES;
                name = name.substring(FOR_ALL.length());
            }
            boolean ifExists = false;
            ConditionOperator op = ConditionOperator.named(name);
            if (op == null && name.length() > IF_EXISTS.length()
                    && name.regionMatches(true, name.length() - IF_EXISTS.length(), IF_EXISTS, 0, IF_EXISTS.length())) {
                op = ConditionOperator.named(name.substring(0, name.length() - IF_EXISTS.length()));
                ifExists = op != null;
            }
            if (op == null) {
                throw new PolicyException("Unknown condition operator \"" + written + "\" in " + where);
            }
            if (op == ConditionOperator.NULL && (ifExists || qualifier != Condition.Qualifier.NONE)) {
                throw new PolicyException("The Null operator takes neither IfExists nor ForAnyValue/ForAllValues (\""
                        + written + "\" in " + where + ")");
            }
            JsonNode keys = operatorEntry.getValue();
            if (!keys.isObject() || keys.isEmpty()) {
                throw new PolicyException("Condition operator " + written + " in " + where
                        + " must map condition keys to values");
            }
            Iterator<Map.Entry<String, JsonNode>> keyEntries = keys.fields();
            while (keyEntries.hasNext()) {
                Map.Entry<String, JsonNode> keyEntry = keyEntries.next();
                String key = keyEntry.getKey();
                int colon = key.indexOf(':');
                if (colon <= 0 || colon == key.length() - 1 || key.chars().anyMatch(Character::isWhitespace)) {
                    throw new PolicyException("Invalid condition key \"" + key + "\" in " + where
                            + ": must be prefix:name (e.g. aws:SourceIp)");
                }
                List<String> values = conditionValues(keyEntry.getValue(), written, key, where);
                List<ConditionOperator.Value> compiled = new ArrayList<>();
                for (String v : values) {
                    try {
                        compiled.add(op.compile(bounded(v, written + " " + key + " value", where), variables));
                    } catch (PolicyException e) {
                        if (kind == PolicyKind.RESOURCE && op.type == ConditionOperator.Type.ARN) {
                            compiled.add(NO_ARN); // SQS accepts any text for an ARN condition; no ARN equals it
                            continue;
                        }
                        throw new PolicyException(e.getMessage() + " (key " + key + " in " + where + ")");
                    }
                }
                out.add(new Condition(written, qualifier, ifExists, key, values, op, compiled));
            }
        }
        return out;
    }

    /** A condition value: a string, number or boolean, or a non-empty array of them. */
    private static List<String> conditionValues(JsonNode node, String operator, String key, String where)
            throws PolicyException {
        List<String> out = new ArrayList<>();
        if (node.isArray()) {
            if (node.isEmpty()) {
                throw new PolicyException("Empty value list for " + operator + " " + key + " in " + where);
            }
            for (JsonNode v : node) {
                out.add(scalar(v, operator + " " + key, where));
            }
        } else {
            out.add(scalar(node, operator + " " + key, where));
        }
        return out;
    }

    private static String scalar(JsonNode v, String element, String where) throws PolicyException {
        if (v.isTextual() || v.isNumber() || v.isBoolean()) {
            return v.asText();
        }
        throw new PolicyException("Invalid value for " + element + " in " + where + ": must be a string, number or boolean");
    }

    /** A string or a non-empty array of strings. */
    private static List<String> texts(JsonNode node, String element, String where) throws PolicyException {
        List<String> out = new ArrayList<>();
        if (node.isTextual()) {
            out.add(node.asText());
        } else if (node.isArray() && !node.isEmpty()) {
            for (JsonNode v : node) {
                if (!v.isTextual()) {
                    throw new PolicyException(element + " in " + where + " must hold strings only");
                }
                out.add(v.asText());
            }
        } else {
            throw new PolicyException(element + " in " + where + " must be a string or a non-empty array of strings");
        }
        for (String s : out) {
            if (s.isEmpty()) {
                throw new PolicyException(element + " in " + where + " holds an empty string");
            }
        }
        return out;
    }

    private static String optionalText(JsonNode node, String field) throws PolicyException {
        JsonNode v = node.get(field);
        if (v == null) {
            return null;
        }
        if (!v.isTextual()) {
            throw new PolicyException(field + " must be a string");
        }
        return v.asText();
    }

    private static void checkFields(JsonNode node, Set<String> allowed, String where) throws PolicyException {
        Iterator<String> names = node.fieldNames();
        while (names.hasNext()) {
            String name = names.next();
            if (!allowed.contains(name)) {
                throw new PolicyException("Unknown element \"" + name + "\" in " + where);
            }
        }
    }

    private static boolean startsWithIgnoreCase(String s, String prefix) {
        return s.regionMatches(true, 0, prefix, 0, prefix.length());
    }
}
