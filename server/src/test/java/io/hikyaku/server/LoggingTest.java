package io.hikyaku.server;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.api.CallContext;
import io.hikyaku.api.SqsService;
import io.hikyaku.protocol.ApiException;
import io.hikyaku.protocol.ApiRequest;
import io.hikyaku.server.http.Codecs;
import io.hikyaku.server.logging.AccessLog;
import io.hikyaku.server.logging.JsonLineLayout;
import io.hikyaku.server.logging.LogSetup;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.slf4j.event.KeyValuePair;

/** What the log tells: the start summary and stop line, a warning for every 5xx, the access log, JSON lines. */
class LoggingTest {

    private final ListAppender<ILoggingEvent> captured = new ListAppender<>();
    private Logger root;

    @BeforeEach
    void capture() {
        LogSetup.apply(LogFormat.TEXT, true);
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        captured.setContext(context);
        captured.start();
        root.addAppender(captured);
    }

    @AfterEach
    void release() {
        root.detachAppender(captured);
        LogSetup.apply(LogFormat.TEXT, false);
    }

    private List<String> lines(Level level) {
        return captured.list.stream().filter(e -> e.getLevel() == level).map(ILoggingEvent::getFormattedMessage).toList();
    }

    private static ServerConfig config() {
        return ServerConfig.defaults().withPort(0).withStorage(StorageMode.MEMORY);
    }

    @Test
    void startSummaryAndStopLine() {
        ServerConfig config = config().withQueues(List.of(new QueueDefinition("logged", Map.of(), Map.of(), null, null)));
        try (HikyakuServer server = HikyakuServer.start(config)) {
            assertThat(lines(Level.INFO)).anySatisfy(line -> assertThat(line)
                    .containsPattern("started in \\d+ ms \\(\\d+ ms since the process began\\)")
                    .contains("1 queue(s) and 0 message(s) loaded")
                    .contains("listening on /127.0.0.1:" + server.port()).contains("storage memory")
                    .contains("access log off").contains("1 queue(s) from the config"));
        }
        assertThat(lines(Level.INFO)).anySatisfy(line -> assertThat(line).startsWith("Hikyaku stopped after"));
    }

    /** A service whose every call fails as a store failure does: InternalError. */
    private static final class FailingService implements SqsService {
        @Override
        public CompletableFuture<ObjectNode> invoke(CallContext context, ApiRequest request) {
            return CompletableFuture.failedFuture(new ApiException("InternalError", "We encountered an internal error. Please try again."));
        }

        @Override
        public void close() {
        }
    }

    @Test
    void every5xxIsAWarningAndTheAccessLogHasOneLinePerRequestWithoutSecrets() throws Exception {
        try (HikyakuServer server = HikyakuServer.start(config().withAccessLog(true), Codecs.standard(), new FailingService());
             RawHttp http = new RawHttp(server.port())) {
            http.send(RawHttp.jsonCall("ListQueues", "{}",
                    "Authorization: AWS4-HMAC-SHA256 Credential=AKIDLOGTEST/20260101/us-east-1/sqs/aws4_request, "
                            + "SignedHeaders=host, Signature=0123456789abcdef"));
            RawHttp.Response response = http.read();
            assertThat(response.status()).isEqualTo(500);
            String requestId = response.headers().get("x-amzn-requestid");

            assertThat(lines(Level.WARN)).anySatisfy(line -> assertThat(line)
                    .isEqualTo("Request " + requestId + " (ListQueues) answered 500 InternalError"));
            List<ILoggingEvent> access = captured.list.stream().filter(e -> e.getLoggerName().equals(AccessLog.LOGGER)).toList();
            assertThat(access).hasSize(1);
            Map<String, Object> fields = access.get(0).getKeyValuePairs().stream()
                    .collect(Collectors.toMap(kv -> kv.key, kv -> kv.value));
            assertThat(fields).containsEntry("requestId", requestId).containsEntry("principal", "AKIDLOGTEST")
                    .containsEntry("action", "ListQueues").containsEntry("status", 500).containsEntry("error", "InternalError")
                    .containsEntry("peer", "127.0.0.1").containsEntry("protocol", "json").containsKey("latencyMs");
            assertThat(fields.values().toString()).doesNotContain("0123456789abcdef");
        }
    }

    /** Issue 40: the access log names the queue the request was resolved to, whatever form addressed it. */
    @Test
    void theAccessLogNamesTheResolvedQueueForEveryAddressingForm() throws Exception {
        ServerConfig config = config().withAccessLog(true).withQueues(List.of(new QueueDefinition("orders", Map.of(), Map.of(), null, null)));
        try (HikyakuServer server = HikyakuServer.start(config); RawHttp http = new RawHttp(server.port())) {
            for (String url : new String[] {"orders", "http://localhost/queue/orders", "http://localhost/000000000000/orders"}) {
                http.send(RawHttp.jsonCall("SendMessage", "{\"QueueUrl\":\"" + url + "\",\"MessageBody\":\"m\"}"));
                assertThat(http.read().status()).isEqualTo(200);
            }
            http.send(RawHttp.jsonCall("SendMessage", "{\"QueueUrl\":\"\",\"MessageBody\":\"m\"}").replace("POST / ", "POST /orders "));
            assertThat(http.read().status()).isEqualTo(200);
            List<Object> queues = captured.list.stream().filter(e -> e.getLoggerName().equals(AccessLog.LOGGER))
                    .map(e -> e.getKeyValuePairs().stream().filter(kv -> kv.key.equals("queue")).findFirst().orElseThrow().value)
                    .toList();
            assertThat(queues).containsExactly("000000000000/orders", "000000000000/orders", "000000000000/orders",
                    "000000000000/orders");
        }
    }

    @Test
    void jsonLinesCarryTheFieldsAsKeys() throws Exception {
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        LoggingEvent event = new LoggingEvent(getClass().getName(), context.getLogger(AccessLog.LOGGER), Level.INFO,
                "request", null, null);
        event.addKeyValuePair(new KeyValuePair("status", 200));
        event.addKeyValuePair(new KeyValuePair("action", "SendMessage"));
        JsonLineLayout layout = new JsonLineLayout();
        layout.setContext(context);
        layout.start();
        String line = layout.doLayout(event);
        assertThat(line).endsWith("\n").doesNotContain("\n{");
        JsonNode json = new ObjectMapper().readTree(line);
        assertThat(json.get("level").asText()).isEqualTo("INFO");
        assertThat(json.get("logger").asText()).isEqualTo(AccessLog.LOGGER);
        assertThat(json.get("message").asText()).isEqualTo("request");
        assertThat(json.get("status").asInt()).isEqualTo(200);
        assertThat(json.get("action").asText()).isEqualTo("SendMessage");
        assertThat(json.get("time").asText()).endsWith("Z");
    }
}
