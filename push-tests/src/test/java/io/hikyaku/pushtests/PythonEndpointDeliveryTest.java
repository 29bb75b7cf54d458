package io.hikyaku.pushtests;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.hikyaku.push.FunctionConfig;
import io.hikyaku.pushtests.support.PushTestBase;
import io.hikyaku.pushtests.support.PythonEndpoint;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;

/**
 * Push delivery end to end against a Python handler behind a tiny http.server adapter
 * (test resource push_endpoint.py) that checks the HMAC signature of every call.
 */
class PythonEndpointDeliveryTest extends PushTestBase {

    private static final Duration WAIT = Duration.ofSeconds(20);
    private PythonEndpoint python;

    @Override
    protected List<FunctionConfig> functions() throws Exception {
        Path dir = Files.createTempDirectory("push-python");
        python = new PythonEndpoint(dir, "py-secret");
        closeables.add(python);
        return List.of(new FunctionConfig("py-fn", python.url(), 5, Map.of(), "py-secret"));
    }

    private String mapping(String queue) throws Exception {
        return createMapping("{\"FunctionName\":\"arn:aws:lambda:us-east-1:000000000000:function:py-fn\",\"EventSourceArn\":\""
                + arn(queue) + "\",\"FunctionResponseTypes\":[\"ReportBatchItemFailures\"]}");
    }

    @Test
    void theHandlerGetsLambdasEventAndItsBatchItemFailuresAreRetried() throws Exception {
        String name = uniqueName("py");
        String url = createQueue(name, Map.of());
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("ok-1")
                .messageAttributes(Map.of("n", MessageAttributeValue.builder().dataType("Number").stringValue("42").build())));
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("fail:please"));
        String uuid = mapping(name);
        try {
            await("ok-1 deleted, the failure kept", WAIT, () -> metrics(uuid).messagesDeleted() == 1 && metrics(uuid).itemFailures() == 1);
            assertThat(depth(url)).isEqualTo(1);
            JsonNode ok = python.recordsFor(arn(name)).stream().filter(r -> r.path("body").asText().equals("ok-1")).findFirst().orElseThrow();
            assertThat(ok.path("messageAttributes").path("n").path("stringValue").asText()).isEqualTo("42");
            assertThat(ok.path("messageAttributes").path("n").path("dataType").asText()).isEqualTo("Number");
            assertThat(ok.path("eventSource").asText()).isEqualTo("aws:sqs");
            assertThat(python.invocations()).allSatisfy(i -> assertThat(i.path("signatureOk").asBoolean()).isTrue());
            advance(Duration.ofSeconds(31));
            await("the failed item delivered again", WAIT, () -> python.recordsFor(arn(name)).size() == 3);
            assertThat(python.recordsFor(arn(name)).get(2).path("attributes").path("ApproximateReceiveCount").asText()).isEqualTo("2");
        } finally {
            deleteMapping(uuid);
        }
    }

    @Test
    void anUnhandledExceptionFailsTheWholeBatch() throws Exception {
        String name = uniqueName("py-crash");
        String url = createQueue(name, Map.of());
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("fine"));
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("crash:now"));
        String uuid = mapping(name);
        try {
            await("the failed invocation", WAIT, () -> metrics(uuid).errors() >= 1);
            assertThat(depth(url)).isEqualTo(2);
            assertThat(metrics(uuid).messagesDeleted()).isZero();
        } finally {
            deleteMapping(uuid);
        }
    }
}
