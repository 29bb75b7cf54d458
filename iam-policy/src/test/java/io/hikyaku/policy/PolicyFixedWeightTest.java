package io.hikyaku.policy;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * {@link Policy#fixedWeight}: what the server reads to evaluate a policy where a request arrives
 * (condition-free, variable-free, small) or off the event loop (anything that reads the request's keys).
 */
class PolicyFixedWeightTest {

    private static Policy parse(String statements, PolicyKind kind) throws PolicyException {
        return Policy.parse("{\"Version\":\"2012-10-17\",\"Statement\":[" + statements + "]}", kind);
    }

    @Test
    void aConditionFreePolicyWeighsTheLengthOfItsPatterns() throws PolicyException {
        Policy p = parse("{\"Effect\":\"Allow\",\"Action\":\"sqs:*\",\"Resource\":\"*\"}", PolicyKind.IDENTITY);
        assertThat(p.readsRequestKeys()).isFalse();
        assertThat(p.fixedWeight()).isEqualTo("sqs:*".length() + "*".length());
        Policy two = parse("{\"Effect\":\"Allow\",\"Principal\":{\"AWS\":\"111111111111\"},\"Action\":[\"sqs:SendMessage\","
                + "\"sqs:ReceiveMessage\"],\"Resource\":\"arn:aws:sqs:us-east-1:222222222222:q\"}", PolicyKind.RESOURCE);
        assertThat(two.fixedWeight()).isEqualTo(Statement.PRINCIPAL_WEIGHT + "sqs:SendMessage".length()
                + "sqs:ReceiveMessage".length() + "arn:aws:sqs:us-east-1:222222222222:q".length());
    }

    @Test
    void aConditionOrAVariableAnywhereMakesItReadTheRequest() throws PolicyException {
        Policy condition = parse("{\"Effect\":\"Allow\",\"Action\":\"sqs:*\",\"Resource\":\"*\"},"
                + "{\"Effect\":\"Deny\",\"Action\":\"sqs:*\",\"Resource\":\"*\",\"Condition\":{\"Bool\":{\"aws:SecureTransport\":\"false\"}}}",
                PolicyKind.IDENTITY);
        assertThat(condition.readsRequestKeys()).isTrue();
        assertThat(condition.fixedWeight()).isEqualTo(-1);
        Policy variable = parse("{\"Effect\":\"Allow\",\"Action\":\"sqs:*\",\"Resource\":\"arn:aws:sqs:*:*:${aws:username}-*\"}",
                PolicyKind.IDENTITY);
        assertThat(variable.readsRequestKeys()).isTrue();
        Policy literal = Policy.parse("{\"Version\":\"2008-10-17\",\"Statement\":[{\"Effect\":\"Allow\",\"Action\":\"sqs:*\","
                + "\"Resource\":\"arn:aws:sqs:*:*:${aws:username}\"}]}", PolicyKind.IDENTITY);
        assertThat(literal.readsRequestKeys()).as("in a 2008-10-17 policy ${...} is literal text").isFalse();
    }
}
