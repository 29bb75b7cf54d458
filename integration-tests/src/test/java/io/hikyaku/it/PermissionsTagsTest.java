package io.hikyaku.it;

import static io.hikyaku.it.support.SqsErrors.assertV1Error;
import static io.hikyaku.it.support.SqsErrors.assertV2Error;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.hikyaku.it.support.Json;
import io.hikyaku.it.support.SqsTestBase;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/** AddPermission/RemovePermission and the Policy they build (behaviours 62-64); TagQueue/UntagQueue/ListQueueTags. */
class PermissionsTagsTest extends SqsTestBase {

    private JsonNode policy(String url) {
        String p = attribute(url, QueueAttributeName.POLICY);
        assertThat(p).as("Policy attribute").isNotNull();
        return Json.parse(p);
    }

    @Test
    void b64_addPermissionBuildsThePolicy() {
        String name = unique("perm");
        String url = createQueue(name);
        sqs.addPermission(b -> b.queueUrl(url).label("crossaccountpermission").awsAccountIds("111111111111").actions("ReceiveMessage"));
        JsonNode p = policy(url);
        assertThat(p.path("Version").asText()).isEqualTo("2008-10-17");
        assertThat(p.path("Id").asText()).isNotBlank();
        assertThat(p.path("Statement")).hasSize(1);
        JsonNode s = p.path("Statement").get(0);
        assertThat(s.path("Sid").asText()).isEqualTo("crossaccountpermission");
        assertThat(s.path("Effect").asText()).isEqualTo("Allow");
        assertThat(s.path("Principal").path("AWS").asText()).isEqualTo("arn:aws:iam::111111111111:root");
        assertThat(s.path("Action").asText()).isEqualTo("SQS:ReceiveMessage");
        assertThat(s.path("Resource").asText()).isEqualTo(arn(name));
    }

    @Test
    void b64_severalAccountsAndActionsBecomeLists() {
        String url = createQueue(unique("perm"));
        sqs.addPermission(b -> b.queueUrl(url).label("two").awsAccountIds("111111111111", "222222222222")
                .actions("SendMessage", "DeleteMessage"));
        JsonNode s = policy(url).path("Statement").get(0);
        assertThat(s.path("Principal").path("AWS").isArray()).isTrue();
        assertThat(s.path("Principal").path("AWS")).extracting(JsonNode::asText)
                .containsExactlyInAnyOrder("arn:aws:iam::111111111111:root", "arn:aws:iam::222222222222:root");
        assertThat(s.path("Action")).extracting(JsonNode::asText).containsExactlyInAnyOrder("SQS:SendMessage", "SQS:DeleteMessage");
    }

    @Test
    void b62_duplicateLabel() {
        String url = createQueue(unique("perm"));
        sqs.addPermission(b -> b.queueUrl(url).label("crossaccountpermission").awsAccountIds("111111111111").actions("ReceiveMessage"));
        assertV2Error(() -> sqs.addPermission(b -> b.queueUrl(url).label("crossaccountpermission").awsAccountIds("111111111111")
                        .actions("SendMessage")), "InvalidParameterValue",
                "Value crossaccountpermission for parameter Label is invalid. Reason: Already exists.");
    }

    @Test
    void b63_removeUnknownLabel() {
        String url = createQueue(unique("perm"));
        sqs.addPermission(b -> b.queueUrl(url).label("crossaccountpermission").awsAccountIds("111111111111").actions("ReceiveMessage"));
        assertV2Error(() -> sqs.removePermission(b -> b.queueUrl(url).label("crossaccountpermission2")), "InvalidParameterValue",
                "Value crossaccountpermission2 for parameter Label is invalid. Reason: can't find label.");
    }

    @Test
    void b64_removingTheLastPermissionRemovesThePolicy() {
        String url = createQueue(unique("perm"));
        sqs.addPermission(b -> b.queueUrl(url).label("first").awsAccountIds("111111111111").actions("ReceiveMessage"));
        sqs.addPermission(b -> b.queueUrl(url).label("second").awsAccountIds("222222222222").actions("SendMessage"));
        assertThat(policy(url).path("Statement")).extracting(st -> st.path("Sid").asText()).containsExactly("first", "second");
        sqs.removePermission(b -> b.queueUrl(url).label("first"));
        assertThat(policy(url).path("Statement")).extracting(st -> st.path("Sid").asText()).containsExactly("second");
        sqs.removePermission(b -> b.queueUrl(url).label("second"));
        assertThat(sqs.getQueueAttributes(b -> b.queueUrl(url).attributeNames(QueueAttributeName.POLICY)).attributes()).isEmpty();
    }

    @Test
    void addPermissionWithAnUnknownAction() {
        String url = createQueue(unique("perm"));
        // AWS: "Value SQS:<action> for parameter ActionName is invalid. Reason: Please refer to the appropriate WSDL
        // for a list of valid actions." (InvalidParameterValue)
        var e = assertV2Error(() -> sqs.addPermission(b -> b.queueUrl(url).label("bad").awsAccountIds("111111111111").actions("Foo")),
                "InvalidParameterValue", null);
        assertThat(e.awsErrorDetails().errorMessage()).contains("for parameter ActionName is invalid.");
        assertThat(sqs.getQueueAttributes(b -> b.queueUrl(url).attributeNames(QueueAttributeName.POLICY)).attributes()).isEmpty();
    }

    @Test
    void addPermissionWithAnInvalidLabel() {
        String url = createQueue(unique("perm"));
        assertV2Error(() -> sqs.addPermission(b -> b.queueUrl(url).label("bad label!").awsAccountIds("111111111111")
                .actions("SendMessage")), "InvalidParameterValue", null);
    }

    @Test
    void permissions_v1() {
        String name = unique("perm1");
        String url = sqsV1.createQueue(name).getQueueUrl();
        sqsV1.addPermission(url, "v1label", List.of("111111111111"), List.of("SendMessage"));
        JsonNode s = policy(url).path("Statement").get(0);
        assertThat(s.path("Sid").asText()).isEqualTo("v1label");
        assertThat(s.path("Action").asText()).isEqualTo("SQS:SendMessage");
        assertV1Error(() -> sqsV1.addPermission(url, "v1label", List.of("111111111111"), List.of("SendMessage")),
                "InvalidParameterValue", "Value v1label for parameter Label is invalid. Reason: Already exists.");
        sqsV1.removePermission(url, "v1label");
        assertV1Error(() -> sqsV1.removePermission(url, "v1label"), "InvalidParameterValue",
                "Value v1label for parameter Label is invalid. Reason: can't find label.");
    }

    @Test
    void tagUntagAndList_v2() {
        String url = sqs.createQueue(b -> b.queueName(unique("tags")).tags(Map.of("team", "core", "env", "test"))).queueUrl();
        assertThat(sqs.listQueueTags(b -> b.queueUrl(url)).tags()).isEqualTo(Map.of("team", "core", "env", "test"));
        sqs.tagQueue(b -> b.queueUrl(url).tags(Map.of("env", "prod", "Env", "case-sensitive", "empty", "")));
        assertThat(sqs.listQueueTags(b -> b.queueUrl(url)).tags())
                .isEqualTo(Map.of("team", "core", "env", "prod", "Env", "case-sensitive", "empty", ""));
        sqs.untagQueue(b -> b.queueUrl(url).tagKeys("env", "never-set"));
        assertThat(sqs.listQueueTags(b -> b.queueUrl(url)).tags()).isEqualTo(Map.of("team", "core", "Env", "case-sensitive", "empty", ""));
        sqs.untagQueue(b -> b.queueUrl(url).tagKeys("team", "Env", "empty"));
        var r = sqs.listQueueTags(b -> b.queueUrl(url));
        assertThat(r.tags()).isEmpty();
    }

    @Test
    void tagsOfANewQueueWithoutTags() {
        String url = createQueue(unique("tags"));
        assertThat(sqs.listQueueTags(b -> b.queueUrl(url)).hasTags()).isFalse();
        var raw = http.json("ListQueueTags", "{\"QueueUrl\":\"" + url + "\"}");
        assertThat(raw.status()).isEqualTo(200);
        assertThat(Json.parse(raw.body()).has("Tags")).isFalse();
    }

    @Test
    void tagUntagAndList_v1() {
        String url = sqsV1.createQueue(new com.amazonaws.services.sqs.model.CreateQueueRequest(unique("tags1"))
                .addTagsEntry("a", "1")).getQueueUrl();
        sqsV1.tagQueue(url, Map.of("b", "2"));
        assertThat(sqsV1.listQueueTags(url).getTags()).isEqualTo(Map.of("a", "1", "b", "2"));
        sqsV1.untagQueue(url, List.of("a"));
        assertThat(sqsV1.listQueueTags(url).getTags()).isEqualTo(Map.of("b", "2"));
    }
}
