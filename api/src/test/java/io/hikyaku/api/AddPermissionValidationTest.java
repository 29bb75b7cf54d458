package io.hikyaku.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.protocol.ApiException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class AddPermissionValidationTest {

    private final ServiceHarness sqs = new ServiceHarness();
    private String url;

    @BeforeEach
    void queue() {
        url = sqs.createQueue("perm", null);
    }

    @AfterEach
    void close() {
        sqs.close();
    }

    private String request(String label, String accounts, String actions) {
        return "{\"QueueUrl\":\"" + url + "\",\"Label\":\"" + label + "\",\"AWSAccountIds\":" + accounts
                + ",\"Actions\":" + actions + "}";
    }

    private void assertRefused(String label, String accounts, String actions, String message) {
        ApiException e = sqs.error("AddPermission", request(label, accounts, actions));
        assertThat(e.errorType()).isEqualTo("InvalidParameterValue");
        assertThat(e.getMessage()).isEqualTo(message);
        ObjectNode policy = sqs.call("GetQueueAttributes", "{\"QueueUrl\":\"" + url + "\",\"AttributeNames\":[\"Policy\"]}");
        assertThat(policy.has("Attributes")).as("no Policy is written").isFalse();
    }

    @Test
    void anUnknownActionIsRefused() {
        assertRefused("p", "[\"111111111111\"]", "[\"Fly\"]",
                "Value SQS:Fly for parameter ActionName is invalid. Reason: Please refer to the appropriate WSDL for a list of valid actions.");
    }

    @Test
    void ownerOnlyActionsAreRefused() {
        for (String action : new String[] {"RemovePermission", "AddPermission", "CreateQueue", "DeleteQueue",
                "SetQueueAttributes", "ListQueues", "TagQueue", "UntagQueue"}) {
            assertRefused("p", "[\"111111111111\"]", "[\"SendMessage\",\"" + action + "\"]", "Value SQS:" + action
                    + " for parameter ActionName is invalid. Reason: Only the queue owner is allowed to invoke this action.");
        }
    }

    @Test
    void moreThanSevenActionsAreRefused() {
        String eight = "[" + "\"SendMessage\",".repeat(7) + "\"SendMessage\"]";
        assertRefused("p", "[\"111111111111\"]", eight, "8 Actions were found, maximum allowed is 7.");
    }

    @Test
    void aLabelWithOtherCharactersOrTooLongIsRefused() {
        String reason = " for parameter Label is invalid. Reason: Can only include alphanumeric characters, hyphens, "
                + "or underscores. 1 to 80 in length.";
        assertRefused("bad label!", "[\"111111111111\"]", "[\"SendMessage\"]", "Value bad label!" + reason);
        String long81 = "a".repeat(81);
        assertRefused(long81, "[\"111111111111\"]", "[\"SendMessage\"]", "Value " + long81 + reason);
    }

    @Test
    void anAccountIdThatIsNotTwelveDigitsIsRefused() {
        assertRefused("p", "[\"111111111111\",\"1111\"]", "[\"SendMessage\"]",
                "Value 1111 for parameter AWSAccountIds is invalid. Reason: An AWS account id is 12 digits.");
    }

    @Test
    void validRequestsAreAccepted() {
        sqs.call("AddPermission", request("a-b_C" + "9".repeat(75), "[\"111111111111\",\"222222222222\"]",
                "[\"SendMessage\",\"ReceiveMessage\",\"DeleteMessage\",\"ChangeMessageVisibility\","
                        + "\"GetQueueAttributes\",\"GetQueueUrl\",\"PurgeQueue\"]"));
        sqs.call("AddPermission", request("all", "[\"111111111111\"]", "[\"*\"]"));
        sqs.call("AddPermission", request("more", "[\"111111111111\"]",
                "[\"ListDeadLetterSourceQueues\",\"ListQueueTags\",\"SendMessageBatch\"]"));
        ObjectNode policy = sqs.call("GetQueueAttributes", "{\"QueueUrl\":\"" + url + "\",\"AttributeNames\":[\"Policy\"]}");
        assertThat(policy.get("Attributes").get("Policy").asText()).contains("\"SQS:*\"").contains("\"SQS:PurgeQueue\"");
    }
}
