package io.hikyaku.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.hikyaku.protocol.ApiException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class QueueBootstrapTest {

    final FakeService service = new FakeService();
    final QueueBootstrap bootstrap = new QueueBootstrap(service, "000000000000", "us-east-1", "http://127.0.0.1:9324");

    FakeService.Call call(String action, String queueNameOrUrlSuffix) {
        return service.calls.stream().filter(c -> c.request().action().equals(action))
                .filter(c -> c.request().input().path("QueueName").asText().equals(queueNameOrUrlSuffix)
                        || c.request().input().path("QueueUrl").asText().endsWith("/" + queueNameOrUrlSuffix))
                .findFirst().orElseThrow();
    }

    @Test
    void createsDeadLetterQueuesFirstAndWiresTheRedrivePolicy() throws Exception {
        bootstrap.createAll(List.of(
                new QueueDefinition("orders", Map.of("VisibilityTimeout", "45"), Map.of("team", "shop"), "orders-dlq", 3),
                QueueDefinition.named("orders-dlq")));

        List<String> created = service.calls.stream().filter(c -> c.request().action().equals("CreateQueue"))
                .map(c -> c.request().input().path("QueueName").asText()).toList();
        assertThat(created).containsExactly("orders-dlq", "orders");

        JsonNode attrs = call("SetQueueAttributes", "orders").request().input().path("Attributes");
        assertThat(attrs.path("VisibilityTimeout").asText()).isEqualTo("45");
        JsonNode redrive = FakeCodec.JSON.readTree(attrs.path("RedrivePolicy").asText());
        assertThat(redrive.path("deadLetterTargetArn").asText()).isEqualTo("arn:aws:sqs:us-east-1:000000000000:orders-dlq");
        assertThat(redrive.path("maxReceiveCount").asInt()).isEqualTo(3);

        assertThat(call("TagQueue", "orders").request().input().path("Tags").path("team").asText()).isEqualTo("shop");
        assertThat(service.calls).allSatisfy(c -> {
            assertThat(c.context().accountId()).isEqualTo("000000000000");
            assertThat(c.context().baseUrl()).isEqualTo("http://127.0.0.1:9324");
        });
        // the plain DLQ needs no attribute or tag calls
        assertThat(service.calls.stream().filter(c -> c.request().input().path("QueueUrl").asText().endsWith("/orders-dlq")
                && !c.request().action().equals("GetQueueAttributes"))).isEmpty();
    }

    @Test
    void fifoQueuesAreCreatedAsFifo() {
        bootstrap.createAll(List.of(new QueueDefinition("jobs.fifo", Map.of("ContentBasedDeduplication", "true"), Map.of(), null, null)));
        JsonNode create = call("CreateQueue", "jobs.fifo").request().input();
        assertThat(create.path("Attributes").path("FifoQueue").asText()).isEqualTo("true");
        assertThat(create.path("Attributes").has("ContentBasedDeduplication")).isFalse();
        assertThat(call("SetQueueAttributes", "jobs.fifo").request().input().path("Attributes").path("ContentBasedDeduplication").asText())
                .isEqualTo("true");
    }

    @Test
    void aDeadLetterQueueOutsideTheFileIsLookedUp() {
        bootstrap.createAll(List.of(new QueueDefinition("work", Map.of(), Map.of(), "existing-dlq", 5)));
        assertThat(service.actions()).containsExactly("CreateQueue", "GetQueueUrl", "GetQueueAttributes", "SetQueueAttributes");
    }

    @Test
    void aDeadLetterQueueThatExistsNowhereIsNamed() {
        service.handlers.put("GetQueueUrl", (ctx, req) -> CompletableFuture.failedFuture(
                new ApiException("QueueDoesNotExist", "The specified queue does not exist.")));
        assertThatThrownBy(() -> bootstrap.createAll(List.of(new QueueDefinition("work", Map.of(), Map.of(), "no-such-dlq", 5))))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("queue work: its dead-letter queue no-such-dlq does not exist (it is neither in the config file nor on the server)");
    }

    @Test
    void cyclesAndDuplicatesAreRefused() {
        assertThatThrownBy(() -> bootstrap.createAll(List.of(
                new QueueDefinition("a", Map.of(), Map.of(), "b", 1), new QueueDefinition("b", Map.of(), Map.of(), "a", 1))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cycle");
        assertThatThrownBy(() -> bootstrap.createAll(List.of(QueueDefinition.named("a"), QueueDefinition.named("a"))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("twice");
    }

    @Test
    void aServiceErrorNamesTheQueueAndTheAction() {
        service.handlers.put("SetQueueAttributes", (ctx, req) ->
                CompletableFuture.failedFuture(new ApiException("InvalidAttributeValue", "Invalid value for the parameter VisibilityTimeout.")));
        assertThatThrownBy(() -> bootstrap.createAll(List.of(new QueueDefinition("q", Map.of("VisibilityTimeout", "-1"), Map.of(), null, null))))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("queue q").hasMessageContaining("SetQueueAttributes").hasMessageContaining("InvalidAttributeValue");
    }

    @Test
    void serverStartCreatesConfiguredQueuesAndFailsCleanlyWhenItCannot() {
        FakeService s = new FakeService();
        ServerConfig config = ServerConfig.defaults().withPort(0).withStorage(StorageMode.MEMORY)
                .withQueues(List.of(QueueDefinition.named("boot")));
        try (HikyakuServer server = HikyakuServer.start(config, new FakeCodec(), s)) {
            assertThat(s.actions()).startsWith("CreateQueue"); // before the port was bound
            assertThat(server.port()).isPositive();
        }
        FakeService failing = new FakeService();
        failing.handlers.put("CreateQueue", (ctx, req) -> CompletableFuture.failedFuture(new ApiException("InvalidParameterValue", "bad name")));
        assertThatThrownBy(() -> HikyakuServer.start(config, new FakeCodec(), failing)).hasMessageContaining("boot");
        assertThat(failing.closed).isTrue();
    }
}
