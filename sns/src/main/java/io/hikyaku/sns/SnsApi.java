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
    static final int PAGE_SIZE = 100;

    private final SnsTopics topics;
    private final String region;
    private final Clock clock;
    private final Supplier<UUID> uuids;
    private final Supplier<byte[]> tokenBytes;

    public SnsApi(SnsTopics topics, String region, Clock clock, Supplier<UUID> uuids, Supplier<byte[]> tokenBytes) {
        this.topics = topics;
        this.region = region;
        this.clock = clock;
        this.uuids = uuids;
        this.tokenBytes = tokenBytes;
    }

    /** Production ids: random UUIDs and 32-byte tokens from a SecureRandom. */
    public static SnsApi create(SnsTopics topics, String region) {
        java.security.SecureRandom random = new java.security.SecureRandom();
        return new SnsApi(topics, region, Clock.systemUTC(), UUID::randomUUID, () -> {
            byte[] b = new byte[32];
            random.nextBytes(b);
            return b;
        });
    }

    public CompletableFuture<HttpResponseData> handle(HttpRequestData request, String accountId) {
        String requestId = uuids.get().toString();
        String action = "";
        try {
            SnsParams p = SnsParams.of(request);
            action = p.get("Action") == null ? "" : p.get("Action");
            String xml = dispatch(action, p, accountId, requestId);
            return CompletableFuture.completedFuture(response(200, xml));
        } catch (SnsException e) {
            return CompletableFuture.completedFuture(response(e.status(), SnsXml.error(e, requestId)));
        }
    }

    private static HttpResponseData response(int status, String xml) {
        return new HttpResponseData(status, Map.of("Content-Type", "text/xml"), xml.getBytes(StandardCharsets.UTF_8));
    }

    private String dispatch(String action, SnsParams p, String account, String requestId) throws SnsException {
        long now = clock.millis();
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
                String arn = topics.apply(c).arn();
                boolean pending = topics.read(s -> "true".equals(s.subscriptionAttributes(arn).get("PendingConfirmation")));
                String shown = pending && !"true".equalsIgnoreCase(p.get("ReturnSubscriptionArn")) ? "pending confirmation" : arn;
                return SnsXml.response(action, new SnsXml().element("SubscriptionArn", shown), false, requestId);
            }
            case "ConfirmSubscription" -> {
                String arn = topics.apply(new SnsCommand.ConfirmSubscription(account, p.required("TopicArn"),
                        p.required("Token"), "true".equalsIgnoreCase(p.get("AuthenticateOnUnsubscribe")), now)).arn();
                return SnsXml.response(action, new SnsXml().element("SubscriptionArn", arn), false, requestId);
            }
            case "Unsubscribe" -> {
                topics.apply(new SnsCommand.Unsubscribe(account, p.required("SubscriptionArn")));
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
            case "Publish", "PublishBatch" -> throw new SnsException("InvalidAction", 400,
                    "Hikyaku does not deliver SNS messages yet: " + action + " is not served");
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
