package io.hikyaku.server.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.identity.Principal;
import io.hikyaku.protocol.ApiException;
import io.hikyaku.protocol.ApiRequest;
import io.hikyaku.protocol.WireProtocol;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;

/** Which queues a request names, and the refusal of another account's. */
class AccountIsolationTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final AccountIsolation isolation = new AccountIsolation("us-east-1");
    private final Principal a = Principal.accountRoot("111111111111");

    @Test
    void everyWayOfNamingAQueueIsChecked() throws Exception {
        allowed("SendMessage", "{\"QueueUrl\":\"http://h:1/111111111111/q\"}", "/");
        denied("SendMessage", "{\"QueueUrl\":\"http://h:1/222222222222/q\"}", "/", "sqs:sendmessage", "222222222222:q");
        denied("SendMessage", "{}", "/222222222222/q", "sqs:sendmessage", "222222222222:q"); // Query to a queue URL path
        denied("SendMessageBatch", "{\"QueueUrl\":\"/222222222222/q\"}", "/", "sqs:sendmessage", "222222222222:q");
        denied("GetQueueUrl", "{\"QueueName\":\"q\",\"QueueOwnerAWSAccountId\":\"222222222222\"}", "/", "sqs:getqueueurl", "222222222222:q");
        denied("StartMessageMoveTask", "{\"SourceArn\":\"arn:aws:sqs:us-east-1:222222222222:dlq\"}", "/", "sqs:startmessagemovetask",
                "222222222222:dlq");
        denied("SetQueueAttributes", "{\"QueueUrl\":\"/111111111111/q\",\"Attributes\":{\"RedrivePolicy\":"
                + "\"{\\\"deadLetterTargetArn\\\":\\\"arn:aws:sqs:us-east-1:222222222222:dlq\\\",\\\"maxReceiveCount\\\":3}\"}}", "/",
                "sqs:setqueueattributes", "222222222222:dlq");
        String handle = Base64.getEncoder().encodeToString("{\"taskId\":\"t\",\"sourceArn\":\"arn:aws:sqs:us-east-1:222222222222:dlq\"}"
                .getBytes(StandardCharsets.UTF_8));
        denied("CancelMessageMoveTask", "{\"TaskHandle\":\"" + handle + "\"}", "/", "sqs:cancelmessagemovetask", "222222222222:dlq");
        allowed("ListQueues", "{}", "/");
        allowed("CreateQueue", "{\"QueueName\":\"q\"}", "/");
        allowed("CancelMessageMoveTask", "{\"TaskHandle\":\"not base64\"}", "/"); // the service answers that one
    }

    @Test
    void anonymousIsDenied() throws Exception {
        assertThatThrownBy(() -> isolation.check(Principal.anonymous(), request("ListQueues", "{}", "/")))
                .isInstanceOf(ApiException.class).hasMessage("Access to the resource https://sqs.us-east-1.amazonaws.com/ is denied.");
        assertThatThrownBy(() -> isolation.check(Principal.anonymous(), request("SendMessage", "{\"QueueUrl\":\"/111111111111/q\"}", "/")))
                .hasMessage("Access to the resource https://sqs.us-east-1.amazonaws.com/111111111111/q is denied.");
    }

    private void allowed(String action, String input, String path) throws Exception {
        isolation.check(a, request(action, input, path));
    }

    private void denied(String action, String input, String path, String iamAction, String resource) throws Exception {
        ApiRequest r = request(action, input, path);
        assertThatThrownBy(() -> isolation.check(a, r)).isInstanceOfSatisfying(ApiException.class, e -> {
            assertThat(e.errorType()).isEqualTo("AccessDenied");
            assertThat(e.getMessage()).isEqualTo("User: arn:aws:iam::111111111111:root is not authorized to perform: " + iamAction
                    + " on resource: arn:aws:sqs:us-east-1:" + resource + " because no resource-based policy allows the " + iamAction + " action");
        });
    }

    private static ApiRequest request(String action, String input, String path) throws Exception {
        return new ApiRequest(action, (ObjectNode) JSON.readTree(input), WireProtocol.JSON, false, path);
    }
}
