package io.hikyaku.sns;

import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.protocol.HttpRequestData;
import io.hikyaku.protocol.HttpResponseData;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class SnsApiTest {

    private long next;
    private final SnsApi api;

    SnsApiTest() throws Exception {
        api = new SnsApi(SnsTopics.open(SnsJournal.memory()), "us-east-1",
                Clock.fixed(Instant.parse("2026-12-07T00:00:00Z"), ZoneOffset.UTC),
                () -> new UUID(0, ++next), () -> new byte[] {1, 2, 3}, null);
    }

    private HttpResponseData call(String... pairs) {
        Map<String, String> form = new LinkedHashMap<>();
        form.put("Version", "2010-03-31");
        for (int i = 0; i < pairs.length; i += 2) {
            form.put(pairs[i], pairs[i + 1]);
        }
        StringBuilder body = new StringBuilder();
        form.forEach((k, v) -> body.append(body.length() == 0 ? "" : "&").append(URLEncoder.encode(k, StandardCharsets.UTF_8))
                .append('=').append(URLEncoder.encode(v, StandardCharsets.UTF_8)));
        return api.handle(new HttpRequestData("POST", "/", "", Map.of("content-type", "application/x-www-form-urlencoded"),
                body.toString().getBytes(StandardCharsets.UTF_8)), "000000000000").join();
    }

    private static String text(HttpResponseData r) {
        return new String(r.body(), StandardCharsets.UTF_8);
    }

    @Test
    void createTopicAnswersInSnsXml() {
        HttpResponseData r = call("Action", "CreateTopic", "Name", "orders", "Tags.member.1.Key", "team",
                "Tags.member.1.Value", "a", "Attributes.entry.1.key", "DisplayName", "Attributes.entry.1.value", "O&O");
        assertThat(r.status()).isEqualTo(200);
        assertThat(text(r)).isEqualTo("<CreateTopicResponse xmlns=\"http://sns.amazonaws.com/doc/2010-03-31/\">"
                + "<CreateTopicResult><TopicArn>arn:aws:sns:us-east-1:000000000000:orders</TopicArn></CreateTopicResult>"
                + "<ResponseMetadata><RequestId>00000000-0000-0000-0000-000000000001</RequestId></ResponseMetadata>"
                + "</CreateTopicResponse>");
        assertThat(text(call("Action", "GetTopicAttributes", "TopicArn", "arn:aws:sns:us-east-1:000000000000:orders")))
                .contains("<entry><key>DisplayName</key><value>O&amp;O</value></entry>");
        assertThat(text(call("Action", "ListTagsForResource", "ResourceArn", "arn:aws:sns:us-east-1:000000000000:orders")))
                .contains("<Tags><member><Key>team</Key><Value>a</Value></member></Tags>");
        assertThat(text(call("Action", "TagResource", "ResourceArn", "arn:aws:sns:us-east-1:000000000000:orders")))
                .contains("<TagResourceResult/>");
    }

    @Test
    void errorsAreSnsErrorResponses() {
        HttpResponseData r = call("Action", "GetTopicAttributes", "TopicArn", "arn:aws:sns:us-east-1:000000000000:none");
        assertThat(r.status()).isEqualTo(404);
        assertThat(text(r)).isEqualTo("<ErrorResponse xmlns=\"http://sns.amazonaws.com/doc/2010-03-31/\"><Error>"
                + "<Type>Sender</Type><Code>NotFound</Code><Message>Topic does not exist</Message></Error>"
                + "<RequestId>00000000-0000-0000-0000-000000000001</RequestId></ErrorResponse>");
        HttpResponseData missing = call("Action", "DeleteTopic");
        assertThat(missing.status()).isEqualTo(400);
        assertThat(text(missing)).contains("<Code>ValidationError</Code><Message>1 validation error detected: Value null at "
                + "'topicArn' failed to satisfy constraint: Member must not be null</Message>");
        assertThat(text(call("Action", "Nope"))).contains("<Code>InvalidAction</Code>");
    }

    @Test
    void listTopicsPagesByHundred() {
        for (int i = 0; i < 150; i++) {
            assertThat(call("Action", "CreateTopic", "Name", String.format("t%03d", i)).status()).isEqualTo(200);
        }
        String first = text(call("Action", "ListTopics"));
        assertThat(first.split("<member>", -1)).hasSize(101);
        Matcher m = Pattern.compile("<NextToken>([^<]+)</NextToken>").matcher(first);
        assertThat(m.find()).isTrue();
        String second = text(call("Action", "ListTopics", "NextToken", m.group(1)));
        assertThat(second.split("<member>", -1)).hasSize(51);
        assertThat(second).doesNotContain("<NextToken>").contains(":t149</TopicArn>");
        assertThat(call("Action", "ListTopics", "NextToken", "garbage!").status()).isEqualTo(400);
    }

    @Test
    void subscribeAnswersPendingConfirmationUnlessTheArnIsAskedFor() {
        call("Action", "CreateTopic", "Name", "orders");
        String topic = "arn:aws:sns:us-east-1:000000000000:orders";
        assertThat(text(call("Action", "Subscribe", "TopicArn", topic, "Protocol", "http", "Endpoint", "http://example.com/")))
                .contains("<SubscriptionArn>pending confirmation</SubscriptionArn>");
        assertThat(text(call("Action", "Subscribe", "TopicArn", topic, "Protocol", "sqs",
                "Endpoint", "arn:aws:sqs:us-east-1:000000000000:q", "ReturnSubscriptionArn", "true")))
                .containsPattern("<SubscriptionArn>arn:aws:sns:us-east-1:000000000000:orders:[0-9a-f-]{36}</SubscriptionArn>");
        String list = text(call("Action", "ListSubscriptionsByTopic", "TopicArn", topic));
        assertThat(list).contains("<Protocol>sqs</Protocol>", "<SubscriptionArn>PendingConfirmation</SubscriptionArn>");
        assertThat(text(call("Action", "ConfirmSubscription", "TopicArn", topic, "Token", "010203")))
                .contains("<ConfirmSubscriptionResult><SubscriptionArn>" + topic + ":");
    }
}
