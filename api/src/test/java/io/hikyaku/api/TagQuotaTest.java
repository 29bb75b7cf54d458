package io.hikyaku.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.protocol.ApiException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** TagQueue / CreateQueue tags: at most 50 per queue, key 1..128, value 0..256, aws: reserved. */
class TagQuotaTest {

    private final ServiceHarness sqs = new ServiceHarness();
    private String url;

    @BeforeEach
    void queue() {
        url = sqs.createQueue("tags", null);
    }

    @AfterEach
    void close() {
        sqs.close();
    }

    private static String tags(int from, int count) {
        StringBuilder b = new StringBuilder("{");
        for (int i = from; i < from + count; i++) {
            b.append(i > from ? "," : "").append("\"k").append(i).append("\":\"v\"");
        }
        return b.append('}').toString();
    }

    private ApiException tagError(String tagsJson) {
        return sqs.error("TagQueue", "{\"QueueUrl\":\"" + url + "\",\"Tags\":" + tagsJson + "}");
    }

    private int tagCount() {
        ObjectNode out = sqs.call("ListQueueTags", "{\"QueueUrl\":\"" + url + "\"}");
        return out.has("Tags") ? out.get("Tags").size() : 0;
    }

    @Test
    void fiftyOneTagsInOneRequestAreRefused() {
        ApiException e = tagError(tags(0, 51));
        assertThat(e.errorType()).isEqualTo("InvalidParameterValue");
        assertThat(e.getMessage()).isEqualTo("Too many tags added for queue tags.");
        assertThat(tagCount()).isZero();
    }

    @Test
    void theLimitCountsTheTagsTheQueueAlreadyHas() {
        sqs.call("TagQueue", "{\"QueueUrl\":\"" + url + "\",\"Tags\":" + tags(0, 40) + "}");
        sqs.call("TagQueue", "{\"QueueUrl\":\"" + url + "\",\"Tags\":" + tags(30, 20) + "}"); // 10 overwrite: 50
        assertThat(tagCount()).isEqualTo(50);
        sqs.call("TagQueue", "{\"QueueUrl\":\"" + url + "\",\"Tags\":{\"k0\":\"changed\"}}"); // overwrite at the limit
        assertThat(tagError("{\"one-more\":\"v\"}").getMessage()).startsWith("Too many tags added for queue tags.");
        assertThat(tagCount()).isEqualTo(50);
    }

    @Test
    void keyAndValueLengthsAndTheAwsPrefix() {
        String key129 = "k".repeat(129);
        ApiException longKey = tagError("{\"" + key129 + "\":\"v\"}");
        assertThat(longKey.errorType()).isEqualTo("InvalidParameterValue");
        assertThat(longKey.getMessage()).isEqualTo("Value " + key129
                + " for parameter TagKey is invalid. Reason: Tag keys must be between 1 and 128 characters in length.");
        assertThat(tagError("{\"\":\"v\"}").getMessage()).startsWith("Value  for parameter TagKey is invalid.");
        String value257 = "v".repeat(257);
        assertThat(tagError("{\"k\":\"" + value257 + "\"}").getMessage()).isEqualTo("Value " + value257
                + " for parameter TagValue is invalid. Reason: Tag values must be at most 256 characters in length.");
        assertThat(tagError("{\"aws:x\":\"v\"}").getMessage())
                .isEqualTo("Value aws:x for parameter TagKey is invalid. Reason: The prefix aws: is reserved for AWS use.");
        assertThat(tagError("{\"AWS:x\":\"v\"}").errorType()).isEqualTo("InvalidParameterValue");
        assertThat(tagCount()).isZero();
        // The limits themselves are fine; lengths are Unicode characters (an emoji is one).
        String emojiKey = "\uD83D\uDE00".repeat(128);
        sqs.call("TagQueue", "{\"QueueUrl\":\"" + url + "\",\"Tags\":{\"" + "k".repeat(128) + "\":\"" + "v".repeat(256)
                + "\",\"" + emojiKey + "\":\"\",\"awsx\":\"v\"}}");
        assertThat(tagCount()).isEqualTo(3);
    }

    @Test
    void aNullTagValueIsAnEmptyValue() {
        sqs.call("TagQueue", "{\"QueueUrl\":\"" + url + "\",\"Tags\":{\"k\":null}}");
        assertThat(sqs.call("ListQueueTags", "{\"QueueUrl\":\"" + url + "\"}").get("Tags").get("k").asText()).isEmpty();
    }

    @Test
    void createQueueTagsFollowTheSameRules() {
        ApiException e = sqs.error("CreateQueue", "{\"QueueName\":\"many\",\"tags\":" + tags(0, 51) + "}");
        assertThat(e.getMessage()).isEqualTo("Too many tags added for queue many.");
        assertThat(sqs.error("CreateQueue", "{\"QueueName\":\"reserved\",\"tags\":{\"aws:k\":\"v\"}}").errorType())
                .isEqualTo("InvalidParameterValue");
        assertThat(sqs.error("GetQueueUrl", "{\"QueueName\":\"many\"}").errorType()).isEqualTo("QueueDoesNotExist");
    }
}
