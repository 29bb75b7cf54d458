package io.hikyaku.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.protocol.ApiException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class QueueActionsEndToEndTest {

    private final ServiceHarness sqs = new ServiceHarness();

    @AfterEach
    void close() {
        sqs.close();
    }

    @Test
    void createGetUrlListDelete() {
        String url = sqs.createQueue("orders", null);
        assertThat(url).isEqualTo("http://localhost:9324/000000000000/orders");
        assertThat(sqs.createQueue("orders", null)).isEqualTo(url); // idempotent
        assertThat(sqs.call("GetQueueUrl", "{\"QueueName\":\"orders\"}").get("QueueUrl").asText()).isEqualTo(url);
        sqs.createQueue("other", null);
        ObjectNode list = sqs.call("ListQueues", "{\"QueueNamePrefix\":\"ord\"}");
        assertThat(list.get("QueueUrls")).hasSize(1);
        assertThat(list.get("QueueUrls").get(0).asText()).isEqualTo(url);
        assertThat(sqs.call("DeleteQueue", "{\"QueueUrl\":\"" + url + "\"}")).isEmpty();
        ApiException gone = sqs.error("GetQueueUrl", "{\"QueueName\":\"orders\"}");
        assertThat(gone.errorType()).isEqualTo("QueueDoesNotExist");
        assertThat(gone.getMessage()).isEqualTo("The specified queue does not exist.");
    }

    @Test
    void listQueuesWithNoMatchHasNoQueueUrlsKey() {
        assertThat(sqs.call("ListQueues", "{}").has("QueueUrls")).isFalse();
    }

    @Test
    void unknownQueueIsFoundByPathWhateverTheHost() {
        for (String url : new String[] {"https://sqs.us-east-1.amazonaws.com/000000000000/unknown",
                "https://queue.amazonaws.com/000000000000/unknown"}) {
            for (String action : new String[] {"GetQueueAttributes", "DeleteQueue", "ListQueueTags", "PurgeQueue"}) {
                ApiException e = sqs.error(action, "{\"QueueUrl\":\"" + url + "\"}");
                assertThat(e.errorType()).as(action).isEqualTo("QueueDoesNotExist");
            }
        }
        sqs.createQueue("known", null);
        ObjectNode attrs = sqs.call("GetQueueAttributes",
                "{\"QueueUrl\":\"https://sqs.eu-west-1.amazonaws.com/000000000000/known\",\"AttributeNames\":[\"VisibilityTimeout\"]}");
        assertThat(attrs.get("Attributes").get("VisibilityTimeout").asText()).isEqualTo("30");
    }

    @Test
    void attributesRoundTripAndNoNamesGiveNoAttributesKey() {
        String url = sqs.createQueue("attrs", "{\"DelaySeconds\":\"5\"}");
        assertThat(sqs.call("GetQueueAttributes", "{\"QueueUrl\":\"" + url + "\"}").has("Attributes")).isFalse();
        sqs.call("SetQueueAttributes", "{\"QueueUrl\":\"" + url + "\",\"Attributes\":{\"VisibilityTimeout\":\"2\"}}");
        ObjectNode all = sqs.call("GetQueueAttributes", "{\"QueueUrl\":\"" + url + "\",\"AttributeNames\":[\"All\"]}");
        assertThat(all.get("Attributes").get("DelaySeconds").asText()).isEqualTo("5");
        assertThat(all.get("Attributes").get("VisibilityTimeout").asText()).isEqualTo("2");
        assertThat(all.get("Attributes").get("QueueArn").asText()).isEqualTo("arn:aws:sqs:us-east-1:000000000000:attrs");
    }

    @Test
    void malformedRedrivePolicyIsRefusedBeforeTheEngine() {
        String url = sqs.createQueue("src", null);
        ApiException e = sqs.error("SetQueueAttributes",
                "{\"QueueUrl\":\"" + url + "\",\"Attributes\":{\"RedrivePolicy\":\"{not json\"}}");
        assertThat(e.errorType()).isEqualTo("InvalidAttributeValue");
    }

    @Test
    void tags() {
        String url = sqs.createQueue("tagged", null);
        assertThat(sqs.call("ListQueueTags", "{\"QueueUrl\":\"" + url + "\"}").has("Tags")).isFalse();
        sqs.call("TagQueue", "{\"QueueUrl\":\"" + url + "\",\"Tags\":{\"team\":\"a\",\"env\":\"dev\"}}");
        sqs.call("UntagQueue", "{\"QueueUrl\":\"" + url + "\",\"TagKeys\":[\"env\"]}");
        ObjectNode tags = sqs.call("ListQueueTags", "{\"QueueUrl\":\"" + url + "\"}");
        assertThat(tags.get("Tags").size()).isEqualTo(1);
        assertThat(tags.get("Tags").get("team").asText()).isEqualTo("a");
    }

    @Test
    void permissionsBuildAPolicy() {
        String url = sqs.createQueue("shared", null);
        sqs.call("AddPermission", "{\"QueueUrl\":\"" + url + "\",\"Label\":\"crossaccountpermission\","
                + "\"AWSAccountIds\":[\"111111111111\"],\"Actions\":[\"ReceiveMessage\"]}");
        ApiException dup = sqs.error("AddPermission", "{\"QueueUrl\":\"" + url + "\",\"Label\":\"crossaccountpermission\","
                + "\"AWSAccountIds\":[\"111111111111\"],\"Actions\":[\"ReceiveMessage\"]}");
        assertThat(dup.getMessage()).isEqualTo("Value crossaccountpermission for parameter Label is invalid. Reason: Already exists.");
        assertThat(sqs.call("GetQueueAttributes", "{\"QueueUrl\":\"" + url + "\",\"AttributeNames\":[\"Policy\"]}")
                .get("Attributes").get("Policy").asText()).contains("crossaccountpermission");
        sqs.call("RemovePermission", "{\"QueueUrl\":\"" + url + "\",\"Label\":\"crossaccountpermission\"}");
        assertThat(sqs.call("GetQueueAttributes", "{\"QueueUrl\":\"" + url + "\",\"AttributeNames\":[\"Policy\"]}")
                .has("Attributes")).isFalse();
        ApiException missing = sqs.error("AddPermission", "{\"QueueUrl\":\"" + url + "\",\"Label\":\"x\",\"Actions\":[\"*\"]}");
        assertThat(missing.errorType()).isEqualTo("MissingRequiredParameterException");
        assertThat(missing.getMessage()).isEqualTo("The request must contain the parameter AWSAccountIds.");
    }

    @Test
    void deadLetterSourceQueuesAlwaysHaveQueueUrls() {
        String dlq = sqs.createQueue("dlq", null);
        assertThat(sqs.call("ListDeadLetterSourceQueues", "{\"QueueUrl\":\"" + dlq + "\"}").get("queueUrls")).isEmpty();
        String src = sqs.createQueue("src", "{\"RedrivePolicy\":\"{\\\"deadLetterTargetArn\\\":\\\"arn:aws:sqs:us-east-1:000000000000:dlq\\\",\\\"maxReceiveCount\\\":\\\"3\\\"}\"}");
        ObjectNode out = sqs.call("ListDeadLetterSourceQueues", "{\"QueueUrl\":\"" + dlq + "\"}");
        assertThat(out.get("queueUrls")).hasSize(1);
        assertThat(out.get("queueUrls").get(0).asText()).isEqualTo(src);
    }

    @Test
    void purgeTwiceWithinAMinuteIsRefused() {
        String url = sqs.createQueue("p", null);
        sqs.call("PurgeQueue", "{\"QueueUrl\":\"" + url + "\"}");
        assertThat(sqs.error("PurgeQueue", "{\"QueueUrl\":\"" + url + "\"}").errorType()).isEqualTo("PurgeQueueInProgress");
    }

    @Test
    void unknownActionAndMissingParameters() {
        ApiException e = sqs.error("FooBar", "{}");
        assertThat(e.errorType()).isEqualTo("InvalidAction");
        assertThat(e.getMessage()).isEqualTo("The action FooBar is not valid for this endpoint.");
        ApiException m = sqs.error("CreateQueue", "{}");
        assertThat(m.errorType()).isEqualTo("MissingRequiredParameterException");
        assertThat(m.getMessage()).isEqualTo("The request must contain the parameter QueueName.");
        ApiException s = sqs.error("CreateQueue", "{\"QueueName\":5}");
        assertThat(s.errorType()).isEqualTo("SerializationException");
    }

    @Test
    void queryRequestMayNameItsQueueInThePath() {
        sqs.createQueue("viaPath", null);
        ObjectNode out = ServiceHarness.await(sqs.startQuery("GetQueueAttributes",
                "{\"AttributeNames\":[\"DelaySeconds\"]}", "/000000000000/viaPath"));
        assertThat(out.get("Attributes").get("DelaySeconds").asText()).isEqualTo("0");
    }

    @Test
    void accountLevelActionsOnAQueueUrlAreInvalidOverQuery() {
        sqs.createQueue("q1", null);
        for (String action : new String[] {"CreateQueue", "ListQueues"}) {
            ApiException e = ServiceHarness.awaitError(sqs.startQuery(action, "{\"QueueName\":\"x\"}", "/000000000000/q1"));
            assertThat(e.errorType()).isEqualTo("InvalidAction");
            assertThat(e.getMessage()).isEqualTo("The action " + action + " is not valid for this endpoint.");
        }
        ApiException noBody = ServiceHarness.awaitError(sqs.startQuery("SendMessage", "{}", "/000000000000/q1"));
        assertThat(noBody.errorType()).isEqualTo("MissingRequiredParameterException");
        assertThat(noBody.getMessage()).isEqualTo("The request must contain the parameter MessageBody.");
        assertThat(sqs.query("ListQueues", "{}").get("QueueUrls")).hasSize(1);
    }
}
