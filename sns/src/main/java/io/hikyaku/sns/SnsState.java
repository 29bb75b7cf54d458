package io.hikyaku.sns;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.filter.FilterPolicyScope;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The SNS state machine: every topic and subscription of the installation. {@link #apply} is deterministic (it
 * reads no clock, randomness or node setting: what it needs travels in the command) and either refuses a command
 * with an {@link SnsException} before changing anything, or applies it whole. {@link #digest} hashes the state so
 * that two replicas (or a replay) can be compared. Not thread-safe: one writer owns it.
 */
public final class SnsState {

    /** SNS's quotas per account (CreateTopic documentation) and Hikyaku's bounds where SNS's are larger. */
    public static final int MAX_STANDARD_TOPICS_PER_ACCOUNT = 100_000;
    public static final int MAX_FIFO_TOPICS_PER_ACCOUNT = 1_000;
    public static final int MAX_SUBSCRIPTIONS_PER_TOPIC = 100_000;
    public static final int MAX_FILTER_POLICIES_PER_TOPIC = 200;
    public static final int MAX_TAGS = 50;
    static final Set<String> SERVED_PROTOCOLS = Set.of("sqs", "http", "https", "lambda");

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Map<String, Topic> topics = new TreeMap<>();
    private final Map<String, Subscription> subscriptions = new TreeMap<>();
    /** How long an UnsubscribeConfirmation's SubscribeURL restores the subscription: a token's 2 days, as at SNS. */
    static final long RESTORE_MILLIS = 2L * 24 * 3600 * 1000;
    /** Unsubscribed HTTP/S subscriptions by restore token, with the time of the Unsubscribe (pruned after 2 days). */
    private final Map<String, Restorable> restorable = new TreeMap<>();

    private record Restorable(Subscription subscription, long unsubscribedAtMillis) { }
    private final Map<String, int[]> topicCounts = new TreeMap<>(); // account -> {standard, fifo}

    /** What a command produced: the ARN it created or found (CreateTopic, Subscribe, ConfirmSubscription), or null. */
    public record Result(String arn) { }

    public Result apply(SnsCommand command) throws SnsException {
        if (command instanceof SnsCommand.CreateTopic c) {
            return createTopic(c);
        }
        if (command instanceof SnsCommand.DeleteTopic c) {
            return deleteTopic(c);
        }
        if (command instanceof SnsCommand.SetTopicAttribute c) {
            return setTopicAttribute(c);
        }
        if (command instanceof SnsCommand.Subscribe c) {
            return subscribe(c);
        }
        if (command instanceof SnsCommand.ConfirmSubscription c) {
            return confirm(c);
        }
        if (command instanceof SnsCommand.Unsubscribe c) {
            return unsubscribe(c);
        }
        if (command instanceof SnsCommand.SetSubscriptionAttribute c) {
            return setSubscriptionAttribute(c);
        }
        if (command instanceof SnsCommand.TagResource c) {
            return tag(c);
        }
        if (command instanceof SnsCommand.UntagResource c) {
            return untag(c);
        }
        if (command instanceof SnsCommand.AddPermission c) {
            return addPermission(c);
        }
        if (command instanceof SnsCommand.RemovePermission c) {
            return removePermission(c);
        }
        throw new IllegalArgumentException("unknown SNS command " + command);
    }

    // ---- topics

    private Result createTopic(SnsCommand.CreateTopic c) throws SnsException {
        Map<String, String> attributes = new TreeMap<>(c.attributes());
        boolean fifo = "true".equals(attributes.remove("FifoTopic"));
        if (fifo && !SnsArns.isTopicName(c.name(), true)) {
            throw SnsException.invalidParameter("Fifo Topic names must end with .fifo and must be made up of only "
                    + "uppercase and lowercase ASCII letters, numbers, underscores, and hyphens, and must be between "
                    + "1 and 256 characters long.");
        }
        if (!fifo && !SnsArns.isTopicName(c.name(), false)) {
            throw SnsException.invalidParameter("Topic Name");
        }
        String arn = SnsArns.topicArn(c.region(), c.account(), c.name());
        Topic existing = topics.get(arn);
        if (existing != null) {
            for (Map.Entry<String, String> e : attributes.entrySet()) {
                if (!e.getValue().equals(existing.attributes.get(e.getKey()))) {
                    throw SnsException.invalidParameter("Attributes Reason: Topic already exists with different attributes");
                }
            }
            for (Map.Entry<String, String> e : c.tags().entrySet()) {
                if (!e.getValue().equals(existing.tags.get(e.getKey()))) {
                    throw SnsException.invalidParameter("Tags Reason: Topic already exists with different tags");
                }
            }
            return new Result(arn);
        }
        for (Map.Entry<String, String> e : attributes.entrySet()) {
            TopicAttributeRules.check(e.getKey(), e.getValue(), fifo);
        }
        checkTags(Map.of(), c.tags());
        int[] counts = topicCounts.computeIfAbsent(c.account(), a -> new int[2]);
        if (fifo ? counts[1] >= MAX_FIFO_TOPICS_PER_ACCOUNT : counts[0] >= MAX_STANDARD_TOPICS_PER_ACCOUNT) {
            throw new SnsException("TopicLimitExceeded", 403, "Topic limit exceeded");
        }
        Topic topic = new Topic(arn, c.account(), c.region(), c.name(), fifo, c.atMillis());
        topic.attributes.putAll(attributes);
        if (fifo && !topic.attributes.containsKey("ContentBasedDeduplication")) {
            topic.attributes.put("ContentBasedDeduplication", "false");
        }
        topic.tags.putAll(c.tags());
        topics.put(arn, topic);
        counts[fifo ? 1 : 0]++;
        return new Result(arn);
    }

    private Result deleteTopic(SnsCommand.DeleteTopic c) throws SnsException {
        SnsArns.checkTopicArn(c.topicArn(), "TopicArn");
        Topic topic = topics.remove(c.topicArn());
        if (topic != null) {
            topicCounts.get(topic.account)[topic.fifo ? 1 : 0]--;
            subscriptions.values().removeIf(s -> s.topicArn.equals(topic.arn));
            restorable.values().removeIf(r -> r.subscription().topicArn.equals(topic.arn));
        }
        return new Result(null); // deleting a missing topic is not an error
    }

    private Result setTopicAttribute(SnsCommand.SetTopicAttribute c) throws SnsException {
        Topic topic = topic(c.topicArn());
        TopicAttributeRules.check(c.name(), c.value(), topic.fifo);
        String value = c.value() == null ? "" : c.value();
        if (c.name().equals("MaximumMessageSize") && Integer.parseInt(value) > 262_144) {
            // above 256 KiB only SQS, Lambda and Firehose may subscribe, at most 100 of them (checked here, as SNS does)
            List<Subscription> subs = subscriptionsOf(topic.arn);
            if (subs.size() > 100 || subs.stream().anyMatch(s -> !(s.protocol.equals("sqs") || s.protocol.equals("lambda")))) {
                throw SnsException.invalidParameter("MaximumMessageSize: a topic above 262144 bytes takes at most "
                        + "100 subscriptions, all SQS, Lambda or Firehose");
            }
        }
        if (value.isEmpty() && (c.name().equals("DeliveryPolicy") || c.name().equals("Policy"))) {
            topic.attributes.remove(c.name()); // an empty policy goes back to the default
        } else {
            topic.attributes.put(c.name(), value);
        }
        return new Result(null);
    }

    // ---- subscriptions

    private Result subscribe(SnsCommand.Subscribe c) throws SnsException {
        SnsArns.checkTopicArn(c.topicArn(), "TopicArn");
        String protocol = c.protocol() == null ? "" : c.protocol();
        if (!SERVED_PROTOCOLS.contains(protocol)) {
            throw SnsException.invalidParameter("Amazon SNS does not support this protocol string: " + protocol);
        }
        Topic topic = topic(c.topicArn());
        String endpoint = c.endpoint() == null ? "" : c.endpoint();
        checkEndpoint(protocol, endpoint, topic);
        for (Subscription s : subscriptions.values()) {
            if (s.topicArn.equals(topic.arn) && s.protocol.equals(protocol) && s.endpoint.equals(endpoint)) {
                for (Map.Entry<String, String> e : c.attributes().entrySet()) {
                    if (!e.getValue().equals(s.attributes.get(e.getKey()))) {
                        throw SnsException.invalidParameter(
                                "Attributes Reason: Subscription already exists with different attributes");
                    }
                }
                return new Result(s.arn);
            }
        }
        for (Map.Entry<String, String> e : c.attributes().entrySet()) {
            try {
                SubscriptionAttributeRules.check(e.getKey(), e.getValue(), topic, protocol);
            } catch (SnsException refused) {
                String reason = refused.getMessage().substring("Invalid parameter: ".length());
                throw SnsException.invalidParameter(reason.startsWith("Attributes Reason: ")
                        ? reason : "Attributes Reason: " + reason);
            }
        }
        List<Subscription> existing = subscriptionsOf(topic.arn);
        if (existing.size() >= MAX_SUBSCRIPTIONS_PER_TOPIC) {
            throw new SnsException("SubscriptionLimitExceeded", 403, "Subscription limit exceeded");
        }
        Subscription s = new Subscription(topic.arn + ":" + c.subscriptionId(), topic.arn, topic.account, protocol,
                endpoint, c.principal());
        s.attributes.putAll(c.attributes());
        compileFilter(s, existing);
        boolean mustConfirm = protocol.startsWith("http")
                || (protocol.equals("sqs") && !topic.account.equals(SnsArns.account(endpoint)));
        s.pendingConfirmation = mustConfirm;
        s.confirmationAuthenticated = !mustConfirm;
        s.token = mustConfirm ? c.token() : null;
        subscriptions.put(s.arn, s);
        return new Result(s.arn);
    }

    private void checkEndpoint(String protocol, String endpoint, Topic topic) throws SnsException {
        switch (protocol) {
            case "sqs" -> {
                if (!SnsArns.isQueueArn(endpoint)) {
                    throw SnsException.invalidParameter("SQS endpoint ARN");
                }
                if (endpoint.endsWith(".fifo") && !topic.fifo) {
                    // SNS really doubles the prefix in this one text
                    throw SnsException.invalidParameter("Invalid parameter: Endpoint Reason: "
                            + "FIFO SQS Queues can not be subscribed to standard SNS topics");
                }
            }
            case "lambda" -> {
                if (!SnsArns.isLambdaArn(endpoint)) {
                    throw SnsException.invalidParameter("Lambda endpoint ARN");
                }
            }
            default -> {
                if (!endpoint.startsWith(protocol + "://") || endpoint.length() > 2048) {
                    throw SnsException.invalidParameter("Endpoint must match the specified protocol");
                }
                if (topic.fifo) {
                    throw SnsException.invalidParameter("Invalid protocol type: " + protocol);
                }
            }
        }
    }

    private void compileFilter(Subscription s, List<Subscription> others) throws SnsException {
        String policy = s.attributes.get("FilterPolicy");
        if (policy == null || policy.isEmpty()) {
            s.filter = null;
            return;
        }
        FilterPolicyScope scope = FilterPolicyScope.MessageAttributes;
        if (s.attributes.containsKey("FilterPolicyScope")) {
            scope = FilterPolicyScope.valueOf(s.attributes.get("FilterPolicyScope"));
        } else {
            s.attributes.put("FilterPolicyScope", scope.name());
        }
        if (s.filter == null
                && others.stream().filter(o -> o != s && o.filter != null).count() >= MAX_FILTER_POLICIES_PER_TOPIC) {
            throw new SnsException("FilterPolicyLimitExceeded", 403, "Filter policy limit exceeded");
        }
        s.filter = SubscriptionAttributeRules.compile(policy, scope);
    }

    private Result confirm(SnsCommand.ConfirmSubscription c) throws SnsException {
        SnsArns.checkTopicArn(c.topicArn(), "Topic");
        topic(c.topicArn());
        for (Subscription s : subscriptions.values()) {
            if (s.topicArn.equals(c.topicArn()) && c.token() != null && c.token().equals(s.token)) {
                s.pendingConfirmation = false;
                s.confirmationAuthenticated = c.authenticated();
                return new Result(s.arn);
            }
        }
        Restorable r = c.token() == null ? null : restorable.get(c.token());
        if (r != null && r.subscription().topicArn.equals(c.topicArn())
                && c.atMillis() - r.unsubscribedAtMillis() <= RESTORE_MILLIS) { // an UnsubscribeConfirmation's SubscribeURL
            restorable.remove(c.token());
            Subscription s = r.subscription();
            for (Subscription other : subscriptions.values()) { // subscribed again meanwhile: that one stands
                if (other.topicArn.equals(s.topicArn) && other.protocol.equals(s.protocol) && other.endpoint.equals(s.endpoint)) {
                    return new Result(other.arn);
                }
            }
            subscriptions.put(s.arn, s);
            Topic topic = topics.get(s.topicArn);
            if (topic.subscriptionsDeleted > 0) {
                topic.subscriptionsDeleted--;
            }
            return new Result(s.arn);
        }
        throw SnsException.invalidParameter("Token");
    }

    private Result unsubscribe(SnsCommand.Unsubscribe c) throws SnsException {
        Subscription s = subscriptions.get(c.subscriptionArn());
        if (s == null) {
            if (c.subscriptionArn() == null || SnsArns.account(c.subscriptionArn()) == null) {
                throw SnsException.invalidParameter("SubscriptionArn");
            }
            throw SnsException.subscriptionNotFound();
        }
        subscriptions.remove(s.arn);
        Topic topic = topics.get(s.topicArn);
        if (topic != null) {
            topic.subscriptionsDeleted++;
        }
        restorable.values().removeIf(r -> c.atMillis() - r.unsubscribedAtMillis() > RESTORE_MILLIS);
        if (c.restoreToken() != null) {
            restorable.put(c.restoreToken(), new Restorable(s, c.atMillis()));
        }
        return new Result(null);
    }

    private Result setSubscriptionAttribute(SnsCommand.SetSubscriptionAttribute c) throws SnsException {
        Subscription s = subscription(c.subscriptionArn());
        Topic topic = topic(s.topicArn);
        SubscriptionAttributeRules.check(c.name(), c.value(), topic, s.protocol);
        String previousValue = s.attributes.get(c.name());
        String value = c.value() == null ? "" : c.value();
        if (value.isEmpty() && (c.name().equals("FilterPolicy") || c.name().equals("RedrivePolicy")
                || c.name().equals("DeliveryPolicy"))) {
            s.attributes.remove(c.name());
        } else {
            s.attributes.put(c.name(), value);
        }
        try {
            compileFilter(s, subscriptionsOf(topic.arn));
        } catch (SnsException refused) { // e.g. a nested policy under attribute scope: undo, then refuse
            if (previousValue == null) {
                s.attributes.remove(c.name());
            } else {
                s.attributes.put(c.name(), previousValue);
            }
            compileFilter(s, subscriptionsOf(topic.arn));
            throw refused;
        }
        return new Result(null);
    }

    // ---- tags and permissions

    private Result tag(SnsCommand.TagResource c) throws SnsException {
        Topic topic = taggable(c.resourceArn());
        checkTags(topic.tags, c.tags());
        topic.tags.putAll(c.tags());
        return new Result(null);
    }

    private Result untag(SnsCommand.UntagResource c) throws SnsException {
        Topic topic = taggable(c.resourceArn());
        c.tagKeys().forEach(topic.tags::remove);
        return new Result(null);
    }

    private Topic taggable(String arn) throws SnsException {
        Topic topic = arn == null ? null : topics.get(arn);
        if (topic == null) {
            throw new SnsException("ResourceNotFound", 404, "Resource does not exist");
        }
        return topic;
    }

    private static void checkTags(Map<String, String> current, Map<String, String> added) throws SnsException {
        for (Map.Entry<String, String> e : added.entrySet()) {
            if (e.getKey().isEmpty() || e.getKey().length() > 128 || e.getValue().length() > 256) {
                throw SnsException.invalidParameter("Tags");
            }
        }
        Map<String, String> merged = new TreeMap<>(current);
        merged.putAll(added);
        if (merged.size() > MAX_TAGS) {
            throw new SnsException("TagLimitExceeded", 400, "Could not complete request: tag quota of per resource exceeded");
        }
    }

    private Result addPermission(SnsCommand.AddPermission c) throws SnsException {
        Topic topic = topic(c.topicArn());
        if (c.label() == null || c.label().isEmpty() || c.accountIds().isEmpty() || c.actions().isEmpty()) {
            throw SnsException.invalidParameter(c.label() == null || c.label().isEmpty() ? "Label"
                    : c.accountIds().isEmpty() ? "AWSAccountId" : "ActionName");
        }
        ObjectNode policy = (ObjectNode) policyOf(topic);
        ArrayNode statements = policy.withArray("Statement");
        for (JsonNode st : statements) {
            if (c.label().equals(st.path("Sid").asText())) {
                throw SnsException.invalidParameter("Statement already exists");
            }
        }
        ObjectNode st = statements.addObject();
        st.put("Sid", c.label());
        st.put("Effect", "Allow");
        ArrayNode principals = st.putObject("Principal").putArray("AWS");
        c.accountIds().forEach(a -> principals.add("arn:aws:iam::" + a + ":root"));
        ArrayNode actions = st.putArray("Action");
        c.actions().forEach(a -> actions.add("SNS:" + a));
        st.put("Resource", topic.arn);
        topic.attributes.put("Policy", policy.toString());
        return new Result(null);
    }

    private Result removePermission(SnsCommand.RemovePermission c) throws SnsException {
        Topic topic = topic(c.topicArn());
        ObjectNode policy = (ObjectNode) policyOf(topic);
        ArrayNode statements = policy.withArray("Statement");
        for (int i = 0; i < statements.size(); i++) {
            if (c.label() != null && c.label().equals(statements.get(i).path("Sid").asText())) {
                statements.remove(i);
                topic.attributes.put("Policy", policy.toString());
                return new Result(null);
            }
        }
        return new Result(null); // SNS answers 200 for a label it does not hold
    }

    // ---- reads

    private Topic topic(String arn) throws SnsException {
        Topic topic = arn == null ? null : topics.get(arn);
        if (topic == null) {
            throw SnsException.topicNotFound();
        }
        return topic;
    }

    private Subscription subscription(String arn) throws SnsException {
        Subscription s = arn == null ? null : subscriptions.get(arn);
        if (s == null) {
            throw SnsException.subscriptionNotFound();
        }
        return s;
    }

    private List<Subscription> subscriptionsOf(String topicArn) {
        List<Subscription> out = new ArrayList<>();
        for (Subscription s : subscriptions.values()) {
            if (s.topicArn.equals(topicArn)) {
                out.add(s);
            }
        }
        return out;
    }

    private static JsonNode policyOf(Topic topic) {
        String set = topic.attributes.get("Policy");
        try {
            return JSON.readTree(set != null ? set : SnsDefaults.defaultPolicy(topic.arn, topic.account));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("a stored policy was validated as JSON", e);
        }
    }

    /** GetTopicAttributes: the attributes SNS returns for the topic, in SNS's order. */
    public Map<String, String> topicAttributes(String topicArn) throws SnsException {
        Topic t = topic(topicArn);
        Map<String, String> out = new LinkedHashMap<>();
        out.put("Policy", t.attributes.getOrDefault("Policy", SnsDefaults.defaultPolicy(t.arn, t.account)));
        out.put("Owner", t.account);
        int confirmed = 0;
        int pending = 0;
        for (Subscription s : subscriptionsOf(t.arn)) {
            if (s.pendingConfirmation) {
                pending++;
            } else {
                confirmed++;
            }
        }
        out.put("SubscriptionsPending", Integer.toString(pending));
        out.put("TopicArn", t.arn);
        out.put("EffectiveDeliveryPolicy", t.attributes.getOrDefault("DeliveryPolicy", SnsDefaults.EFFECTIVE_DELIVERY_POLICY));
        out.put("SubscriptionsConfirmed", Integer.toString(confirmed));
        out.put("DisplayName", t.attributes.getOrDefault("DisplayName", ""));
        out.put("SubscriptionsDeleted", Integer.toString(t.subscriptionsDeleted));
        if (t.fifo) {
            out.put("FifoTopic", "true");
        }
        for (Map.Entry<String, String> e : t.attributes.entrySet()) {
            if (!e.getKey().equals("Policy") && !e.getKey().equals("DisplayName")) {
                out.put(e.getKey(), e.getValue());
            }
        }
        return out;
    }

    /** GetSubscriptionAttributes. */
    public Map<String, String> subscriptionAttributes(String subscriptionArn) throws SnsException {
        Subscription s = subscription(subscriptionArn);
        Map<String, String> out = new LinkedHashMap<>();
        out.put("ConfirmationWasAuthenticated", Boolean.toString(s.confirmationAuthenticated));
        out.put("PendingConfirmation", Boolean.toString(s.pendingConfirmation));
        out.put("Owner", s.owner);
        out.put("RawMessageDelivery", s.attributes.getOrDefault("RawMessageDelivery", "false"));
        out.put("SubscriptionArn", s.arn);
        out.put("TopicArn", s.topicArn);
        out.put("Endpoint", s.endpoint);
        out.put("Protocol", s.protocol);
        if (s.principal != null) {
            out.put("SubscriptionPrincipal", s.principal);
        }
        for (Map.Entry<String, String> e : s.attributes.entrySet()) {
            if (!e.getKey().equals("RawMessageDelivery")) {
                out.put(e.getKey(), e.getValue());
            }
        }
        if (s.protocol.startsWith("http")) {
            Topic t = topics.get(s.topicArn); // the subscription's policy merged with the topic's, as it is applied
            out.put("EffectiveDeliveryPolicy", HttpRetryPolicy.of(t == null ? null : t.attributes.get("DeliveryPolicy"),
                    s.attributes.get("DeliveryPolicy")).effectiveJson());
        }
        return out;
    }

    /** The topic ARNs, in ARN order (ListTopics pages over them). */
    public List<String> topicArns(String account) {
        List<String> out = new ArrayList<>();
        for (Topic t : topics.values()) {
            if (t.account.equals(account)) {
                out.add(t.arn);
            }
        }
        return out;
    }

    /** A row of ListSubscriptions: ARN (or "PendingConfirmation"), owner, protocol, endpoint, topic. */
    public record SubscriptionRow(String subscriptionArn, String owner, String protocol, String endpoint, String topicArn) { }

    /** The subscriptions of an account (topicArn null) or of one topic. */
    public List<SubscriptionRow> subscriptionRows(String account, String topicArn) throws SnsException {
        if (topicArn != null) {
            topic(topicArn);
        }
        List<SubscriptionRow> out = new ArrayList<>();
        for (Subscription s : subscriptions.values()) {
            if (topicArn != null ? s.topicArn.equals(topicArn) : s.owner.equals(account)) {
                out.add(new SubscriptionRow(s.pendingConfirmation ? "PendingConfirmation" : s.arn, s.owner,
                        s.protocol, s.endpoint, s.topicArn));
            }
        }
        return out;
    }

    public Map<String, String> tags(String resourceArn) throws SnsException {
        return new TreeMap<>(taggable(resourceArn).tags);
    }

    /** The confirmed subscriptions of a topic that would receive a message (before filtering), for delivery. */
    List<Subscription> deliverable(String topicArn) throws SnsException {
        topic(topicArn);
        List<Subscription> out = new ArrayList<>();
        for (Subscription s : subscriptionsOf(topicArn)) {
            if (!s.pendingConfirmation) {
                out.add(s);
            }
        }
        return out;
    }

    /** What a SubscriptionConfirmation of a pending HTTP/S subscription needs. */
    record Confirmation(String token, String signatureVersion, HttpRetryPolicy policy) { }

    Confirmation confirmation(String subscriptionArn) throws SnsException {
        Subscription s = subscription(subscriptionArn);
        Topic t = topic(s.topicArn);
        return new Confirmation(s.token, t.attributes.getOrDefault("SignatureVersion", "1"),
                HttpRetryPolicy.of(t.attributes.get("DeliveryPolicy"), s.attributes.get("DeliveryPolicy")));
    }

    /** Where an UnsubscribeConfirmation goes: a confirmed HTTP/S subscription's endpoint and its topic's settings. */
    record UnsubscribeNotice(String topicArn, String endpoint, String signatureVersion, HttpRetryPolicy policy) { }

    /** The notice of a confirmed HTTP/S subscription, or null for any other (or an unknown) subscription. */
    UnsubscribeNotice unsubscribeNotice(String subscriptionArn) {
        Subscription s = subscriptions.get(subscriptionArn);
        if (s == null || s.pendingConfirmation || !(s.protocol.equals("http") || s.protocol.equals("https"))) {
            return null;
        }
        Topic t = topics.get(s.topicArn);
        if (t == null) {
            return null;
        }
        return new UnsubscribeNotice(s.topicArn, s.endpoint, t.attributes.getOrDefault("SignatureVersion", "1"),
                HttpRetryPolicy.of(t.attributes.get("DeliveryPolicy"), s.attributes.get("DeliveryPolicy")));
    }

    Topic topicOrNull(String arn) {
        return topics.get(arn);
    }

    /** SHA-256 over a canonical form of every topic and subscription (maps are sorted, so the order is fixed). */
    public String digest() {
        ObjectNode root = JSON.createObjectNode();
        ObjectNode ts = root.putObject("topics");
        for (Topic t : topics.values()) {
            ObjectNode n = ts.putObject(t.arn);
            n.put("fifo", t.fifo).put("created", t.createdMillis).put("deleted", t.subscriptionsDeleted);
            ObjectNode a = n.putObject("attributes");
            t.attributes.forEach(a::put);
            ObjectNode g = n.putObject("tags");
            t.tags.forEach(g::put);
        }
        ObjectNode ss = root.putObject("subscriptions");
        for (Subscription s : subscriptions.values()) {
            ObjectNode n = ss.putObject(s.arn);
            n.put("protocol", s.protocol).put("endpoint", s.endpoint).put("owner", s.owner)
                    .put("principal", s.principal).put("pending", s.pendingConfirmation)
                    .put("authenticated", s.confirmationAuthenticated).put("token", s.token);
            ObjectNode a = n.putObject("attributes");
            s.attributes.forEach(a::put);
        }
        if (!restorable.isEmpty()) { // absent when empty: digests of states without any stay as they were
            ObjectNode rs = root.putObject("restorable");
            restorable.forEach((token, r) -> rs.putObject(token).put("subscription", r.subscription().arn)
                    .put("at", r.unsubscribedAtMillis()));
        }
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(root.toString().getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
