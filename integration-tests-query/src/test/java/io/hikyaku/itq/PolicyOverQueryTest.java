package io.hikyaku.itq;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.sqs.model.CreateQueueRequest;
import io.hikyaku.itq.support.QueryTestBase;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The queue Policy attribute over Query (SDK v1): invalid documents and quotas with SQS's codes, statuses and texts. */
class PolicyOverQueryTest extends QueryTestBase {

    private static final String INVALID = "Invalid value for the parameter Policy.";

    @Test
    void invalidPoliciesAreRefused() {
        String name = unique("pol");
        String url = sqs.createQueue(name).getQueueUrl();
        assertError(() -> sqs.setQueueAttributes(url, Map.of("Policy", "{")), "InvalidAttributeValue", 400, INVALID);
        String noPrincipal = "{\"Version\":\"2012-10-17\",\"Statement\":{\"Effect\":\"Allow\",\"Action\":\"sqs:SendMessage\","
                + "\"Resource\":\"" + arn(name) + "\"}}";
        assertError(() -> sqs.setQueueAttributes(url, Map.of("Policy", noPrincipal)), "InvalidAttributeValue", 400, INVALID);
        assertError(() -> sqs.createQueue(new CreateQueueRequest(unique("pol")).withAttributes(Map.of("Policy", "null"))),
                "InvalidAttributeValue", 400, INVALID);
        assertThat(sqs.getQueueAttributes(url, List.of("Policy")).getAttributes()).doesNotContainKey("Policy");
    }

    @Test
    void quotasAreOverLimitWith403() {
        String name = unique("pol");
        String url = sqs.createQueue(name).getQueueUrl();
        StringBuilder statements = new StringBuilder();
        for (int i = 0; i < 21; i++) {
            statements.append(i == 0 ? "" : ",").append("{\"Effect\":\"Allow\",\"Principal\":\"*\",\"Action\":\"sqs:SendMessage\",")
                    .append("\"Resource\":\"").append(arn(name)).append("\"}");
        }
        String policy = "{\"Version\":\"2012-10-17\",\"Statement\":[" + statements + "]}";
        assertError(() -> sqs.setQueueAttributes(url, Map.of("Policy", policy)), "OverLimit", 403,
                "21 statements were found in the submitted policy, max allowed is 20");
        String valid = "{\"Version\":\"2012-10-17\",\"Statement\":{\"Effect\":\"Allow\",\"Principal\":{\"AWS\":\"111111111111\"},"
                + "\"Action\":\"sqs:SendMessage\",\"Resource\":\"" + arn(name) + "\"}}";
        sqs.setQueueAttributes(url, Map.of("Policy", valid));
        assertThat(sqs.getQueueAttributes(url, List.of("Policy")).getAttributes()).containsEntry("Policy", valid);
    }

    @Test
    void anEmptyPolicyRemovesThePolicy() {
        String name = unique("pol");
        String url = sqs.createQueue(name).getQueueUrl();
        String valid = "{\"Version\":\"2012-10-17\",\"Statement\":{\"Effect\":\"Allow\",\"Principal\":\"*\","
                + "\"Action\":\"sqs:SendMessage\",\"Resource\":\"" + arn(name) + "\"}}";
        sqs.setQueueAttributes(url, Map.of("Policy", valid));
        sqs.setQueueAttributes(url, Map.of("Policy", ""));
        assertThat(sqs.getQueueAttributes(url, List.of("Policy")).getAttributes()).doesNotContainKey("Policy");
        String created = sqs.createQueue(new CreateQueueRequest(unique("pol")).withAttributes(Map.of("Policy", ""))).getQueueUrl();
        assertThat(sqs.getQueueAttributes(created, List.of("Policy")).getAttributes()).doesNotContainKey("Policy");
    }

    @Test
    void policiesAwsAcceptsAreStoredExactlyAsGiven() {
        String name = unique("pol");
        String url = sqs.createQueue(name).getQueueUrl();
        String placeholders = "{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Allow\",\"Principal\":{\"AWS\":\"*\"},"
                + "\"Action\":\"sqs:SendMessage\",\"Resource\":\"queue_arn\","
                + "\"Condition\":{\"ArnEquals\":{\"aws:SourceArn\":\"topic_arn\"}}}]}";
        sqs.setQueueAttributes(url, Map.of("Policy", placeholders));
        assertThat(sqs.getQueueAttributes(url, List.of("Policy")).getAttributes()).containsEntry("Policy", placeholders);
        String noResource = "{\"Statement\": [{\"Effect\": \"Allow\", \"Principal\": \"*\", \"Action\": \"sqs:*\"}]}";
        sqs.setQueueAttributes(url, Map.of("Policy", noResource));
        assertThat(sqs.getQueueAttributes(url, List.of("Policy")).getAttributes()).containsEntry("Policy", noResource);
    }
}
