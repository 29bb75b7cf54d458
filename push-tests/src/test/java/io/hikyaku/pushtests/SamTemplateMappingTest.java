package io.hikyaku.pushtests;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hikyaku.pushtests.support.JavaEndpoint;
import io.hikyaku.server.HikyakuServer;
import io.hikyaku.server.ServerConfig;
import io.hikyaku.server.StorageMode;
import io.hikyaku.server.config.ConfigFile;
import io.hikyaku.server.config.ConfigResolver;
import io.hikyaku.server.config.Settings;
import io.hikyaku.testsupport.MutableClock;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * A config file that names a SAM template (the order processor of a typical SAM app): the server creates
 * the template's queues and its SQS event's mapping, delivers to the function's HTTP endpoint and deletes
 * what was processed; a restart neither duplicates the mapping nor fails.
 */
class SamTemplateMappingTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TEMPLATE = """
            AWSTemplateFormatVersion: '2010-09-09'
            Transform: AWS::Serverless-2016-10-31
            Description: order processor
            Globals:
              Function:
                Timeout: 30
                Runtime: java17
                MemorySize: 512
            Resources:
              OrderProcessorFunction:
                Type: AWS::Serverless::Function
                Properties:
                  FunctionName: order-processor
                  CodeUri: order-processor/
                  Handler: orders.Handler::handleRequest
                  Policies:
                    - SQSPollerPolicy:
                        QueueName: !GetAtt OrdersQueue.QueueName
                  Events:
                    Orders:
                      Type: SQS
                      Properties:
                        Queue: !GetAtt OrdersQueue.Arn
                        BatchSize: 10
                        FunctionResponseTypes:
                          - ReportBatchItemFailures
              OrdersQueue:
                Type: AWS::SQS::Queue
                Properties:
                  QueueName: sam-orders
                  VisibilityTimeout: 180
                  RedrivePolicy:
                    deadLetterTargetArn: !GetAtt OrdersDLQ.Arn
                    maxReceiveCount: 5
              OrdersDLQ:
                Type: AWS::SQS::Queue
                Properties:
                  QueueName: sam-orders-dlq
            Outputs:
              OrdersQueueUrl:
                Value: !Ref OrdersQueue
            """;

    private final JavaEndpoint endpoint;
    private final Path dir;
    private HikyakuServer server;
    private SqsClient sqs;

    SamTemplateMappingTest() throws Exception {
        endpoint = new JavaEndpoint(null);
        dir = Files.createTempDirectory("push-sam");
    }

    @AfterEach
    void stop() {
        if (sqs != null) {
            sqs.close();
        }
        if (server != null) {
            server.close();
        }
        endpoint.close();
    }

    private void start() throws Exception {
        Files.writeString(dir.resolve("template.yaml"), TEMPLATE);
        // no timeoutSeconds: the template's Globals Timeout (30) applies; the template path is relative to this file
        Files.writeString(dir.resolve("hikyaku.yaml"), """
                functions:
                  - name: order-processor
                    url: %s
                samTemplates:
                  - template.yaml
                """.formatted(endpoint.url()));
        ConfigFile file = ConfigFile.load(dir.resolve("hikyaku.yaml"));
        ServerConfig config = ConfigResolver.resolve(ServerConfig.defaults(), file, Settings.NONE, Settings.NONE)
                .withPort(0).withStorage(StorageMode.ROCKSDB).withDataDir(dir.resolve("data")).withClock(new MutableClock(Instant.now()));
        assertThat(config.push().functions().get(0).timeoutSeconds()).isEqualTo(30);
        server = HikyakuServer.start(config);
        sqs = SqsClient.builder().endpointOverride(URI.create(server.endpoint())).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
                .httpClient(UrlConnectionHttpClient.builder().socketTimeout(Duration.ofSeconds(30)).build()).build();
    }

    private JsonNode listMappings() throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create(server.endpoint() + "/2015-03-31/event-source-mappings/?FunctionName=order-processor")).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
        return JSON.readTree(r.body()).path("EventSourceMappings");
    }

    @Test
    void theTemplatesQueueIsDeliveredToTheConfigFunctionAndDeleted() throws Exception {
        List<String> bodies = new ArrayList<>();
        endpoint.handler(event -> {
            synchronized (bodies) {
                for (SQSEvent.SQSMessage m : event.getRecords()) {
                    bodies.add(m.getBody());
                }
            }
            return new SQSBatchResponse(List.of());
        });
        start();
        String queueArn = "arn:aws:sqs:us-east-1:000000000000:sam-orders";
        JsonNode mappings = listMappings();
        assertThat(mappings).hasSize(1);
        assertThat(mappings.get(0).path("EventSourceArn").asText()).isEqualTo(queueArn);
        assertThat(mappings.get(0).path("BatchSize").asInt()).isEqualTo(10);
        assertThat(mappings.get(0).path("FunctionResponseTypes").toString()).isEqualTo("[\"ReportBatchItemFailures\"]");
        assertThat(mappings.get(0).path("State").asText()).isEqualTo("Enabled");

        String url = sqs.getQueueUrl(b -> b.queueName("sam-orders")).queueUrl();
        Map<QueueAttributeName, String> attributes = sqs.getQueueAttributes(b -> b.queueUrl(url)
                .attributeNames(QueueAttributeName.VISIBILITY_TIMEOUT, QueueAttributeName.REDRIVE_POLICY)).attributes();
        assertThat(attributes.get(QueueAttributeName.VISIBILITY_TIMEOUT)).isEqualTo("180");
        assertThat(JSON.readTree(attributes.get(QueueAttributeName.REDRIVE_POLICY)).toString())
                .isEqualTo("{\"deadLetterTargetArn\":\"arn:aws:sqs:us-east-1:000000000000:sam-orders-dlq\",\"maxReceiveCount\":5}");

        for (int i = 0; i < 25; i++) {
            String body = "order-" + i;
            sqs.sendMessage(b -> b.queueUrl(url).messageBody(body));
        }
        long end = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (depth(url) > 0 || bodies.size() < 25) {
            assertThat(System.nanoTime()).as("all 25 messages delivered and deleted").isLessThan(end);
            Thread.sleep(20);
        }
        synchronized (bodies) {
            assertThat(bodies).hasSize(25).contains("order-0", "order-24");
        }
        assertThat(endpoint.invocationsFor(queueArn)).allSatisfy(batch -> assertThat(batch.size()).isBetween(1, 10));

        sqs.close();
        server.close();
        start(); // the same template at the next start: the mapping is brought up to date, not duplicated
        assertThat(listMappings()).hasSize(1);
        assertThat(listMappings().get(0).path("UUID").asText()).isEqualTo(mappings.get(0).path("UUID").asText());
    }

    private long depth(String url) {
        Map<QueueAttributeName, String> a = sqs.getQueueAttributes(b -> b.queueUrl(url).attributeNames(
                QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES, QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE)).attributes();
        return Long.parseLong(a.get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES))
                + Long.parseLong(a.get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE));
    }
}
