package io.hikyaku.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hikyaku.policy.PolicyCache;
import io.hikyaku.policy.PolicyKind;
import io.hikyaku.protocol.ApiException;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The Policy attribute checks of CreateQueue / SetQueueAttributes, with SQS's errors. */
class QueuePolicyRulesTest {

    private static final String VALID = "{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Allow\",\"Principal\":\"*\","
            + "\"Action\":\"sqs:SendMessage\",\"Resource\":\"arn:aws:sqs:us-east-1:111111111111:q\"}]}";

    private static void refused(String policy, String type, String message) {
        assertThatThrownBy(() -> QueueAttributesReader.read(Map.of("Policy", policy)))
                .isInstanceOf(ApiException.class).hasMessage(message)
                .satisfies(e -> assertThat(((ApiException) e).errorType()).isEqualTo(type));
    }

    @Test
    void aValidPolicyPassesAndIsCachedParsed() throws Exception {
        assertThat(QueueAttributesReader.read(Map.of("Policy", VALID)).values()).containsEntry("Policy", VALID);
        assertThat(PolicyCache.shared().get(VALID, PolicyKind.RESOURCE)).isSameAs(QueuePolicyRules.check(VALID));
    }

    @Test
    void invalidJsonOrGrammarIsInvalidAttributeValue() {
        String message = "Invalid value for the parameter Policy.";
        refused("{", "InvalidAttributeValue", message);
        refused("[]", "InvalidAttributeValue", message);
        refused("{\"Statement\":{\"Effect\":\"Allow\",\"Action\":\"sqs:*\",\"Resource\":\"*\"}}", "InvalidAttributeValue", message);
        refused(VALID.replace("\"Allow\"", "\"Permit\""), "InvalidAttributeValue", message);
        refused(VALID.replace("sqs:SendMessage", "SendMessage"), "InvalidAttributeValue", message);
        refused(VALID.replace("\"Principal\":\"*\"", "\"Principal\":{\"AWS\":\"not-an-account\"}"), "InvalidAttributeValue", message);
    }

    @Test
    void quotasAreOverLimit() {
        refused("{\"Id\":\"" + "x".repeat(8200) + "\",\"Statement\":[]}", "OverLimit", "Submitted policy is over max allowed size.");
        String tenActions = IntStream.range(0, 10).mapToObj(i -> "\"sqs:A" + i + "\"").collect(Collectors.joining(",", "[", "]"));
        refused(VALID.replace("\"sqs:SendMessage\"", tenActions), "OverLimit",
                "10 actions were found in a statement from the submitted policy, max allowed is 7");
        String statement = VALID.substring(VALID.indexOf('[') + 1, VALID.lastIndexOf(']'));
        String many = "{\"Version\":\"2012-10-17\",\"Statement\":["
                + IntStream.range(0, 21).mapToObj(i -> statement).collect(Collectors.joining(",")) + "]}";
        refused(many, "OverLimit", "21 statements were found in the submitted policy, max allowed is 20");
    }
}
