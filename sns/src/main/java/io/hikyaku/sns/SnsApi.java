package io.hikyaku.sns;

import io.hikyaku.protocol.HttpRequestData;
import io.hikyaku.protocol.HttpResponseData;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * SNS's Query protocol ({@code Version=2010-03-31}) over {@link SnsTopics}: decodes the action, stamps the time and
 * draws the ids a command needs (the only place a clock or randomness is read), applies it, and answers in SNS's
 * XML. The caller has authenticated and authorized the request and passes the account it acts for.
 */
public final class SnsApi {

    public static final String VERSION = "2010-03-31";
    static final byte[] VERSION_BYTES = VERSION.getBytes(StandardCharsets.UTF_8);
    static final int PAGE_SIZE = 100;

    private final SnsTopics topics;
    private final String region;
    private final Clock clock;
    private final Supplier<UUID> uuids;
    private final Supplier<byte[]> tokenBytes;
    private final SnsPublisher publisher;
    private final PublishReader messages;
    private volatile String advertisedUrl;

    public SnsApi(SnsTopics topics, String region, Clock clock, Supplier<UUID> uuids, Supplier<byte[]> tokenBytes,
                  SnsPublisher publisher) {
        this.topics = topics;
        this.publisher = publisher;
        this.messages = new PublishReader(clock.millis());
        this.region = region;
        this.clock = clock;
        this.uuids = uuids;
        this.tokenBytes = tokenBytes;
    }

    /** Production ids: random UUIDs and 32-byte tokens from a SecureRandom. */
    public static SnsApi create(SnsTopics topics, String region, SnsPublisher publisher) {
        java.security.SecureRandom random = new java.security.SecureRandom();
        return new SnsApi(topics, region, Clock.systemUTC(), UUID::randomUUID, () -> {
            byte[] b = new byte[32];
            random.nextBytes(b);
            return b;
        }, publisher);
    }

    /** The base of SubscribeURL, UnsubscribeURL and SigningCertURL; null = from each request's Host header. */
    public SnsApi advertise(String url) {
        this.advertisedUrl = url;
        return this;
    }

    private String baseUrl(HttpRequestData request) {
        if (advertisedUrl != null) {
            return advertisedUrl;
        }
        String host = request.header("host");
        return (request.secure() ? "https://" : "http://") + (host == null ? "localhost" : host);
    }

    /**
     * The unsigned links SNS hands to subscribers, served before authentication as SNS serves them: GET of the
     * SubscribeURL (ConfirmSubscription by token, marked not authenticated), of the UnsubscribeURL (only for a
     * subscription whose confirmation was not authenticated and that did not ask AuthenticateOnUnsubscribe), and of
     * the SigningCertURL (the certificate).
     */
    public HttpResponseData handleLink(HttpRequestData request) {
        String requestId = uuids.get().toString();
        if (request.path().startsWith(SnsSigner.CERTIFICATE_PREFIX)) {
            SnsSigner signer = publisher == null ? null : publisher.signer();
            if (signer == null || !request.path().equals(signer.certificatePath())) {
                return new HttpResponseData(404, Map.of("Content-Type", "text/plain"),
                        "no such certificate".getBytes(StandardCharsets.UTF_8));
            }
            return new HttpResponseData(200, Map.of("Content-Type", "application/x-pem-file"), signer.certificatePem());
        }
        try {
            SnsParams p = SnsParams.of(request);
            String action = p.get("Action");
            if ("ConfirmSubscription".equals(action)) {
                String topicArn = p.required("TopicArn");
                SnsArns.checkTopicArn(topicArn, "Topic");
                String arn = topics.apply(new SnsCommand.ConfirmSubscription(SnsArns.account(topicArn), topicArn,
                        p.required("Token"), false, clock.millis())).arn();
                return response(200, SnsXml.response(action, new SnsXml().element("SubscriptionArn", arn), false, requestId));
            }
            String arn = p.required("SubscriptionArn");
            Map<String, String> a = topics.read(s -> s.subscriptionAttributes(arn));
            if (!"false".equals(a.get("ConfirmationWasAuthenticated"))) {
                throw new SnsException("AuthorizationError", 403, "Unsubscribing this subscription requires a signed request");
            }
            unsubscribe(SnsArns.account(arn), arn, baseUrl(request), clock.millis());
            return response(200, SnsXml.response("Unsubscribe", null, false, requestId));
        } catch (SnsException e) {
            return response(e.status(), SnsXml.error(e, requestId));
        }
    }

    /** The topic's Policy (the default one when none was set), or null when there is no such topic. */
    public String topicPolicy(String topicArn) {
        try {
            return topics.read(s -> s.topicOrNull(topicArn) == null ? null : s.topicAttributes(topicArn).get("Policy"));
        } catch (SnsException e) {
            return null;
        }
    }

    public CompletableFuture<HttpResponseData> handle(HttpRequestData request, String accountId) {
        String requestId = uuids.get().toString();
        String action = "";
        try {
            SnsParams p = SnsParams.of(request);
            action = p.get("Action") == null ? "" : p.get("Action");
            String baseUrl = baseUrl(request);
            String xml = dispatch(action, p, accountId, requestId, baseUrl);
            return CompletableFuture.completedFuture(response(200, xml));
        } catch (SnsException e) {
            return CompletableFuture.completedFuture(response(e.status(), SnsXml.error(e, requestId)));
        }
    }

    /** Unsubscribe, then the UnsubscribeConfirmation to a confirmed HTTP/S endpoint, as SNS sends it. */
    private void unsubscribe(String account, String arn, String baseUrl, long now) throws SnsException {
        HttpSubscribers subscribers = publisher == null ? null : publisher.http();
        SnsState.UnsubscribeNotice notice = subscribers == null ? null : topics.read(s -> s.unsubscribeNotice(arn));
        // the UnsubscribeConfirmation's SubscribeURL carries this token: ConfirmSubscription with it restores the subscription
        String restoreToken = notice == null ? null : HexFormat.of().formatHex(tokenBytes.get());
        topics.apply(new SnsCommand.Unsubscribe(account, arn, restoreToken, now));
        if (notice != null) {
            subscribers.sendUnsubscribeConfirmation(arn, notice, restoreToken, baseUrl, uuids.get().toString(), now);
        }
    }

    /** What publishing needs of a topic, read under the state's lock. */
    record TopicView(String arn, boolean fifo, boolean contentDeduplication, String signatureVersion,
                     PublishLimits limit, List<SnsPublisher.Target> targets) { }

    private TopicView topicView(String topicArn) throws SnsException {
        return topics.read(s -> {
            Map<String, String> a = s.topicAttributes(topicArn);
            int max = Integer.parseInt(a.getOrDefault("MaximumMessageSize",
                    Integer.toString(TopicAttributeRules.DEFAULT_MAXIMUM_MESSAGE_SIZE)));
            return new TopicView(topicArn, "true".equals(a.get("FifoTopic")), "true".equals(a.get("ContentBasedDeduplication")),
                    a.getOrDefault("SignatureVersion", "1"), new PublishLimits(max), SnsPublisher.targets(s, topicArn));
        });
    }

    private void publishOne(PublishedMessage m, TopicView topic, String baseUrl) throws SnsException {
        try {
            publisher.deliver(m, topic.fifo(), topic.signatureVersion(), baseUrl, topic.targets()).join();
        } catch (java.util.concurrent.CompletionException e) {
            throw new SnsException("InternalError", 500, "The message could not be delivered to every subscribed queue; "
                    + "some may have it: publish it again");
        }
    }

    private SnsXml publishBatch(SnsParams p, TopicView topic, long now, String baseUrl) throws SnsException {
        List<SnsParams> entries = new java.util.ArrayList<>();
        for (int i = 1; ; i++) {
            SnsParams e = p.under("PublishBatchRequestEntries.member." + i);
            if (e.isEmpty()) {
                break;
            }
            entries.add(e);
            if (entries.size() > 10) {
                throw new SnsException("TooManyEntriesInBatchRequest", 400,
                        "The batch request contains more entries than permissible.");
            }
        }
        if (entries.isEmpty()) {
            throw new SnsException("EmptyBatchRequest", 400, "The batch request doesn't contain any entries.");
        }
        java.util.Set<String> ids = new java.util.HashSet<>();
        for (SnsParams e : entries) {
            String id = e.required("Id");
            if (!id.matches("[A-Za-z0-9_-]{1,80}")) {
                throw new SnsException("InvalidBatchEntryId", 400, id.length() > 80
                        ? "The Id of a batch entry in a batch request is too long: " + id
                        : "The Id of a batch entry in the batch request contains an impermissible character: " + id);
            }
            if (!ids.add(id)) {
                throw new SnsException("BatchEntryIdsNotDistinct", 400, "Two or more batch entries in the request have the same Id.");
            }
        }
        List<Object[]> outcomes = new java.util.ArrayList<>();
        long total = 0;
        List<PublishedMessage> accepted = new java.util.ArrayList<>();
        for (SnsParams e : entries) {
            try {
                PublishedMessage m = messages.read(e, topic, uuids.get().toString(), now);
                topic.limit().check(m);
                total += PublishLimits.size(m);
                accepted.add(m);
                outcomes.add(new Object[] {e.get("Id"), m});
            } catch (SnsException refused) {
                outcomes.add(new Object[] {e.get("Id"), refused});
            }
        }
        if (total > topic.limit().maximum()) {
            throw new SnsException("BatchRequestTooLong", 400,
                    "The length of all the messages put together is more than the limit.");
        }
        SnsXml x = new SnsXml().open("Successful");
        for (Object[] o : outcomes) {
            if (o[1] instanceof PublishedMessage m) {
                publishOne(m, topic, baseUrl);
                x.open("member").element("Id", (String) o[0]).element("MessageId", m.messageId());
                if (m.sequenceNumber() != null) {
                    x.element("SequenceNumber", m.sequenceNumber());
                }
                x.close("member");
            }
        }
        x.close("Successful").open("Failed");
        for (Object[] o : outcomes) {
            if (o[1] instanceof SnsException f) {
                x.open("member").element("Id", (String) o[0]).element("Code", f.code()).element("Message", f.getMessage())
                        .element("SenderFault", Boolean.toString(f.status() < 500)).close("member");
            }
        }
        return x.close("Failed");
    }

    private static HttpResponseData response(int status, String xml) {
        return new HttpResponseData(status, Map.of("Content-Type", "text/xml"), xml.getBytes(StandardCharsets.UTF_8));
    }

    private String dispatch(String action, SnsParams p, String account, String requestId, String baseUrl)
            throws SnsException {
        long now = clock.millis();
        DeliveryPolicyRules.checkRequest(action, p); // before the command: the log may hold policies older checks let in
        switch (action) {
            case "CreateTopic" -> {
                String arn = topics.apply(new SnsCommand.CreateTopic(account, region, p.required("Name"),
                        p.map("Attributes"), p.tags("Tags"), now)).arn();
                return SnsXml.response(action, new SnsXml().element("TopicArn", arn), false, requestId);
            }
            case "DeleteTopic" -> {
                topics.apply(new SnsCommand.DeleteTopic(account, p.required("TopicArn")));
                return SnsXml.response(action, null, false, requestId);
            }
            case "ListTopics" -> {
                List<String> arns = topics.read(s -> s.topicArns(account));
                Page page = Page.of(arns, p.get("NextToken"));
                SnsXml x = new SnsXml().open("Topics");
                for (String arn : page.items(arns)) {
                    x.open("member").element("TopicArn", arn).close("member");
                }
                x.close("Topics");
                page.nextToken(x, arns);
                return SnsXml.response(action, x, false, requestId);
            }
            case "GetTopicAttributes" -> {
                String arn = p.required("TopicArn");
                SnsArns.checkTopicArn(arn, "TopicArn");
                Map<String, String> a = topics.read(s -> s.topicAttributes(arn));
                return SnsXml.response(action, new SnsXml().attributes("Attributes", a), false, requestId);
            }
            case "SetTopicAttributes" -> {
                String arn = p.required("TopicArn");
                SnsArns.checkTopicArn(arn, "TopicArn");
                topics.apply(new SnsCommand.SetTopicAttribute(account, arn, p.required("AttributeName"),
                        p.get("AttributeValue")));
                return SnsXml.response(action, null, false, requestId);
            }
            case "Subscribe" -> {
                String token = HexFormat.of().formatHex(tokenBytes.get());
                SnsCommand.Subscribe c = new SnsCommand.Subscribe(account, p.required("TopicArn"), p.required("Protocol"),
                        p.get("Endpoint"), p.map("Attributes"), uuids.get().toString(), token,
                        "arn:aws:iam::" + account + ":root", now);
                if (c.protocol().equals("lambda") && c.topicArn().endsWith(".fifo")) {
                    // SNS delivers FIFO topics to SQS queues only (checked here, not in apply: older logs may hold one)
                    throw SnsException.invalidParameter("Invalid protocol type: lambda");
                }
                HttpSubscribers subscribers = publisher == null ? null : publisher.http();
                // without HTTP delivery (an API-only test) the subscription is kept pending and nothing is ever sent
                boolean http = subscribers != null && (c.protocol().equals("http") || c.protocol().equals("https"));
                // another account's queue is confirmed by its owner, from a SubscriptionConfirmation put into it
                boolean otherAccountsQueue = subscribers != null && c.protocol().equals("sqs") && c.endpoint() != null
                        && SnsArns.isQueueArn(c.endpoint()) && !c.endpoint().split(":")[4].equals(SnsArns.account(c.topicArn()));
                if (http) {
                    subscribers.checkEndpoint(c.protocol(), c.endpoint());
                }
                boolean confirmable = http || otherAccountsQueue;
                if (confirmable) {
                    subscribers.outbox().reserve(1); // room for the SubscriptionConfirmation
                }
                String arn;
                try {
                    arn = topics.apply(c).arn();
                } catch (SnsException refused) {
                    if (confirmable) {
                        subscribers.outbox().release(1);
                    }
                    throw refused;
                }
                boolean pending = topics.read(s -> "true".equals(s.subscriptionAttributes(arn).get("PendingConfirmation")));
                if (confirmable && pending) {
                    SnsState.Confirmation confirmation = topics.read(s -> s.confirmation(arn));
                    if (http) {
                        subscribers.sendConfirmation(arn, c.topicArn(), c.endpoint(), confirmation.token(), baseUrl,
                                uuids.get().toString(), now, confirmation.signatureVersion(), confirmation.policy());
                    } else {
                        subscribers.sendQueueConfirmation(arn, c.topicArn(), c.endpoint(), confirmation.token(), baseUrl,
                                uuids.get().toString(), now, confirmation.signatureVersion());
                    }
                } else if (confirmable) {
                    subscribers.outbox().release(1);
                }
                String shown = pending && !"true".equalsIgnoreCase(p.get("ReturnSubscriptionArn")) ? "pending confirmation" : arn;
                return SnsXml.response(action, new SnsXml().element("SubscriptionArn", shown), false, requestId);
            }
            case "ConfirmSubscription" -> {
                String arn = topics.apply(new SnsCommand.ConfirmSubscription(account, p.required("TopicArn"),
                        p.required("Token"), "true".equalsIgnoreCase(p.get("AuthenticateOnUnsubscribe")), now)).arn();
                return SnsXml.response(action, new SnsXml().element("SubscriptionArn", arn), false, requestId);
            }
            case "Unsubscribe" -> {
                unsubscribe(account, p.required("SubscriptionArn"), baseUrl, now);
                return SnsXml.response(action, null, false, requestId);
            }
            case "ListSubscriptions", "ListSubscriptionsByTopic" -> {
                String topicArn = action.equals("ListSubscriptions") ? null : p.required("TopicArn");
                List<SnsState.SubscriptionRow> rows = topics.read(s -> s.subscriptionRows(account, topicArn));
                List<String> keys = rows.stream().map(r -> r.topicArn() + "\n" + r.endpoint() + "\n" + r.protocol()).toList();
                Page page = Page.of(keys, p.get("NextToken"));
                SnsXml x = new SnsXml().open("Subscriptions");
                for (int i = page.from; i < page.to; i++) {
                    SnsState.SubscriptionRow r = rows.get(i);
                    x.open("member").element("TopicArn", r.topicArn()).element("Protocol", r.protocol())
                            .element("SubscriptionArn", r.subscriptionArn()).element("Owner", r.owner())
                            .element("Endpoint", r.endpoint()).close("member");
                }
                x.close("Subscriptions");
                page.nextToken(x, keys);
                return SnsXml.response(action, x, false, requestId);
            }
            case "GetSubscriptionAttributes" -> {
                String arn = p.required("SubscriptionArn");
                Map<String, String> a = topics.read(s -> s.subscriptionAttributes(arn));
                return SnsXml.response(action, new SnsXml().attributes("Attributes", a), false, requestId);
            }
            case "SetSubscriptionAttributes" -> {
                topics.apply(new SnsCommand.SetSubscriptionAttribute(account, p.required("SubscriptionArn"),
                        p.required("AttributeName"), p.get("AttributeValue")));
                return SnsXml.response(action, null, false, requestId);
            }
            case "TagResource" -> {
                topics.apply(new SnsCommand.TagResource(account, p.required("ResourceArn"), p.tags("Tags")));
                return SnsXml.response(action, null, true, requestId);
            }
            case "UntagResource" -> {
                topics.apply(new SnsCommand.UntagResource(account, p.required("ResourceArn"), p.list("TagKeys")));
                return SnsXml.response(action, null, true, requestId);
            }
            case "ListTagsForResource" -> {
                String arn = p.required("ResourceArn");
                Map<String, String> tags = topics.read(s -> s.tags(arn));
                SnsXml x = new SnsXml().open("Tags");
                tags.forEach((k, v) -> x.open("member").element("Key", k).element("Value", v).close("member"));
                return SnsXml.response(action, x.close("Tags"), false, requestId);
            }
            case "AddPermission" -> {
                topics.apply(new SnsCommand.AddPermission(account, p.required("TopicArn"), p.required("Label"),
                        p.list("AWSAccountId"), p.list("ActionName")));
                return SnsXml.response(action, null, false, requestId);
            }
            case "RemovePermission" -> {
                topics.apply(new SnsCommand.RemovePermission(account, p.required("TopicArn"), p.required("Label")));
                return SnsXml.response(action, null, false, requestId);
            }
            case "Publish" -> {
                if (publisher == null) {
                    throw new SnsException("InvalidAction", 400, "Publish is not served: no queue service to deliver to");
                }
                String topicArn = p.get("TopicArn") != null ? p.get("TopicArn") : p.get("TargetArn");
                if (topicArn == null) {
                    throw SnsException.invalidParameter("TopicArn or TargetArn Reason: no value for required parameter");
                }
                SnsArns.checkTopicArn(topicArn, "TopicArn");
                TopicView topic = topicView(topicArn);
                PublishedMessage m = messages.read(p, topic, uuids.get().toString(), now);
                topic.limit.check(m);
                publishOne(m, topic, baseUrl);
                SnsXml x = new SnsXml().element("MessageId", m.messageId());
                if (m.sequenceNumber() != null) {
                    x.element("SequenceNumber", m.sequenceNumber());
                }
                return SnsXml.response(action, x, false, requestId);
            }
            case "PublishBatch" -> {
                if (publisher == null) {
                    throw new SnsException("InvalidAction", 400, "PublishBatch is not served: no queue service to deliver to");
                }
                String topicArn = p.required("TopicArn");
                SnsArns.checkTopicArn(topicArn, "TopicArn");
                TopicView topic = topicView(topicArn);
                return SnsXml.response(action, publishBatch(p, topic, now, baseUrl), false, requestId);
            }
            default -> throw new SnsException("InvalidAction", 400,
                    "The action " + action + " is not valid for this endpoint.");
        }
    }

    /** A page of at most 100 over a sorted list; the token is the position of the next item, with its key. */
    private record Page(int from, int to) {

        static Page of(List<String> keys, String token) throws SnsException {
            int from = 0;
            if (token != null && !token.isEmpty()) {
                from = -1;
                try {
                    String decoded = new String(java.util.Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8);
                    int at = Integer.parseInt(decoded.substring(0, decoded.indexOf(':')));
                    if (at >= 0 && at <= keys.size()) {
                        from = at;
                    }
                } catch (RuntimeException e) {
                    from = -1;
                }
                if (from < 0) {
                    throw SnsException.invalidParameter("NextToken");
                }
            }
            return new Page(from, Math.min(keys.size(), from + PAGE_SIZE));
        }

        List<String> items(List<String> keys) {
            return keys.subList(from, to);
        }

        void nextToken(SnsXml x, List<String> keys) {
            if (to < keys.size()) {
                x.element("NextToken", java.util.Base64.getUrlEncoder().withoutPadding()
                        .encodeToString((to + ":" + keys.get(to).hashCode()).getBytes(StandardCharsets.UTF_8)));
            }
        }
    }
}
