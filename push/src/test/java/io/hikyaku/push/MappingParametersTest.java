package io.hikyaku.push;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

class MappingParametersTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static MappingParameters parse(String body, boolean create) throws Exception {
        return MappingParameters.parse((ObjectNode) JSON.readTree(body), create);
    }

    private static void refused(String body, String type, String message) {
        assertThatThrownBy(() -> parse(body, true)).isInstanceOfSatisfying(LambdaException.class, e -> {
            assertThat(e.errorType()).isEqualTo(type);
            assertThat(e.getMessage()).isEqualTo(message);
        });
    }

    @Test
    void readsEveryParameter() throws Exception {
        MappingParameters p = parse("{\"FunctionName\":\"f\",\"EventSourceArn\":\"arn:aws:sqs:us-east-1:000000000000:q\","
                + "\"Enabled\":false,\"BatchSize\":100,\"MaximumBatchingWindowInSeconds\":5,"
                + "\"FunctionResponseTypes\":[\"ReportBatchItemFailures\"],\"ScalingConfig\":{\"MaximumConcurrency\":7},"
                + "\"FilterCriteria\":{\"Filters\":[{\"Pattern\":\"{\\\"body\\\":{\\\"a\\\":[1]}}\"}]}}", true);
        assertThat(p.functionName()).isEqualTo("f");
        assertThat(p.enabled()).isFalse();
        assertThat(p.batchSize()).isEqualTo(100);
        assertThat(p.batchingWindow()).isEqualTo(5);
        assertThat(p.responseTypes()).containsExactly("ReportBatchItemFailures");
        assertThat(p.maxConcurrency()).isEqualTo(7);
        assertThat(p.filterPatterns()).containsExactly("{\"body\":{\"a\":[1]}}");
    }

    @Test
    void modelConstraintsGiveValidationExceptions() {
        refused("{\"EventSourceArn\":\"x\"}", "ValidationException",
                "1 validation error detected: Value null at 'functionName' failed to satisfy constraint: Member must not be null");
        refused("{\"FunctionName\":\"f\",\"BatchSize\":0}", "ValidationException",
                "1 validation error detected: Value '0' at 'batchSize' failed to satisfy constraint: Member must have value greater than or equal to 1");
        refused("{\"FunctionName\":\"f\",\"BatchSize\":10001}", "ValidationException",
                "1 validation error detected: Value '10001' at 'batchSize' failed to satisfy constraint: Member must have value less than or equal to 10000");
        refused("{\"FunctionName\":\"f\",\"MaximumBatchingWindowInSeconds\":301}", "ValidationException",
                "1 validation error detected: Value '301' at 'maximumBatchingWindowInSeconds' failed to satisfy constraint: Member must have value less than or equal to 300");
        refused("{\"FunctionName\":\"f\",\"ScalingConfig\":{\"MaximumConcurrency\":1}}", "ValidationException",
                "1 validation error detected: Value '1' at 'scalingConfig.maximumConcurrency' failed to satisfy constraint: Member must have value greater than or equal to 2");
        refused("{\"FunctionName\":\"f\",\"ScalingConfig\":{\"MaximumConcurrency\":1001}}", "ValidationException",
                "1 validation error detected: Value '1001' at 'scalingConfig.maximumConcurrency' failed to satisfy constraint: Member must have value less than or equal to 1000");
        refused("{\"FunctionName\":\"f\",\"FunctionResponseTypes\":[\"Nope\"]}", "ValidationException",
                "1 validation error detected: Value '[Nope]' at 'functionResponseTypes' failed to satisfy constraint: "
                        + "Member must satisfy constraint: [Member must satisfy enum value set: [ReportBatchItemFailures]]");
    }

    @Test
    void wrongTypesAndStreamOnlyParametersAreRefused() {
        refused("{\"FunctionName\":\"f\",\"BatchSize\":\"ten\"}", "InvalidRequestContentException",
                "Could not parse request body into json: BatchSize must be an integer");
        refused("{\"FunctionName\":\"f\",\"StartingPosition\":\"LATEST\"}", "InvalidParameterValueException",
                "Unsupported parameter for an Amazon SQS event source: StartingPosition");
    }

    @Test
    void anEmptyFilterCriteriaOrScalingConfigClearsOnUpdate() throws Exception {
        MappingParameters p = parse("{\"FilterCriteria\":{},\"ScalingConfig\":{}}", false);
        assertThat(p.filterPatterns()).isEmpty();
        assertThat(p.scalingGiven()).isTrue();
        assertThat(p.maxConcurrency()).isNull();
        MappingParameters none = parse("{}", false);
        assertThat(none.filterPatterns()).isNull();
        assertThat(none.scalingGiven()).isFalse();
    }
}
