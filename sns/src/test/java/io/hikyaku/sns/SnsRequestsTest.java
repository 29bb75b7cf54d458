package io.hikyaku.sns;

import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.protocol.HttpRequestData;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SnsRequestsTest {

    private static HttpRequestData post(Map<String, String> headers, String body) {
        return new HttpRequestData("POST", "/", "", headers, body.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void routedBySigningServiceOrVersionNeverByActionAlone() {
        String sns = "AWS4-HMAC-SHA256 Credential=AKID/20261207/us-east-1/sns/aws4_request, SignedHeaders=host, Signature=x";
        String sqs = sns.replace("/sns/", "/sqs/");
        assertThat(SnsRequests.accepts(post(Map.of("authorization", sns), "Action=AddPermission"))).isTrue();
        assertThat(SnsRequests.accepts(post(Map.of("authorization", sqs), "Action=AddPermission&Version=2010-03-31"))).isFalse();
        assertThat(SnsRequests.accepts(post(Map.of(), "Action=ListTopics&Version=2010-03-31"))).isTrue();
        assertThat(SnsRequests.accepts(post(Map.of(), "Action=AddPermission&Version=2012-11-05"))).isFalse();
        assertThat(SnsRequests.accepts(new HttpRequestData("GET", "/", "Action=ListTopics&Version=2010-03-31", Map.of(), new byte[0]))).isTrue();
    }

    @Test
    void authorizedOnTheTopicOfTheRequest() {
        String topic = "arn:aws:sns:us-east-1:000000000000:orders";
        assertThat(SnsRequests.authorizationTarget(post(Map.of(), "Action=Publish&TopicArn=" + topic))).containsExactly("sns:Publish", topic);
        assertThat(SnsRequests.authorizationTarget(post(Map.of(), "Action=Unsubscribe&SubscriptionArn=" + topic + ":abc")))
                .containsExactly("sns:Unsubscribe", topic);
        assertThat(SnsRequests.authorizationTarget(post(Map.of(), "Action=ListTopics"))).containsExactly("sns:ListTopics", "*");
    }
}
