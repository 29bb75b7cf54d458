package io.hikyaku.push;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The Lambda operation table: every request the API answers has a row; anything else has none (refused). */
class LambdaOperationsTest {

    private static final String ARN = "arn:aws:lambda:us-east-1:111111111111:event-source-mapping:u-1";

    @Test
    void everyOperationHasItsActionAndResource() {
        assertThat(LambdaOperations.find("POST", "/2015-03-31/event-source-mappings/").iamAction()).isEqualTo("lambda:CreateEventSourceMapping");
        assertThat(LambdaOperations.find("GET", "/2015-03-31/event-source-mappings").resource("us-east-1", "111111111111")).isEqualTo("*");
        LambdaOperations.Operation get = LambdaOperations.find("GET", "/2015-03-31/event-source-mappings/u-1");
        assertThat(get.iamAction()).isEqualTo("lambda:GetEventSourceMapping");
        assertThat(get.resource("us-east-1", "111111111111")).isEqualTo(ARN);
        assertThat(LambdaOperations.find("PUT", "/2015-03-31/event-source-mappings/u-1").iamAction()).isEqualTo("lambda:UpdateEventSourceMapping");
        assertThat(LambdaOperations.find("DELETE", "/2015-03-31/event-source-mappings/u-1").iamAction()).isEqualTo("lambda:DeleteEventSourceMapping");
        for (String[] tag : new String[][] {{"GET", "lambda:ListTags"}, {"POST", "lambda:TagResource"}, {"DELETE", "lambda:UntagResource"}}) {
            LambdaOperations.Operation op = LambdaOperations.find(tag[0], "/2017-03-31/tags/" + ARN.replace(":", "%3A"));
            assertThat(op.iamAction()).isEqualTo(tag[1]);
            assertThat(op.resource("us-east-1", "222222222222")).as("the ARN named, not the caller's").isEqualTo(ARN);
            assertThat(LambdaOperations.accountOfArn(op.resourceArn())).isEqualTo("111111111111");
        }
    }

    @Test
    void whatTheApiDoesNotServeHasNoRow() {
        assertThat(LambdaOperations.find("PATCH", "/2015-03-31/event-source-mappings/")).isNull();
        assertThat(LambdaOperations.find("POST", "/2015-03-31/event-source-mappings/u-1")).isNull();
        assertThat(LambdaOperations.find("GET", "/2015-03-31/event-source-mappings/u-1/x")).isNull();
        assertThat(LambdaOperations.find("PUT", "/2017-03-31/tags/" + ARN)).isNull();
        assertThat(LambdaOperations.find("GET", "/2017-03-31/tags/")).isNull();
        assertThat(LambdaOperations.find("GET", "/2017-03-31/tags/%zz")).isNull();
        assertThat(LambdaOperations.find("GET", "/2015-03-31/functions")).isNull();
        assertThat(LambdaOperations.accountOfArn("arn:aws:sqs:us-east-1:111111111111:q")).isNull();
    }
}
