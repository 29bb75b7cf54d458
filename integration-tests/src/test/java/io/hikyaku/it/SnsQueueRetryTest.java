package io.hikyaku.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.hikyaku.it.support.SqsTestBase;
import io.hikyaku.server.ServerConfig;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.kms.KmsClient;
import software.amazon.awssdk.services.sns.SnsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.SqsException;

/**
 * Queue deliveries that a queue refuses, on the real server with the SDK v2 sns, sqs and kms clients. Server-side
 * (the server's index budget is full: RequestThrottled): the publish stands, the copy waits in the durable outbox and
 * is retried on SNS's policy for AWS-managed endpoints until the queue has room. Client-side (the queue's KMS key is
 * disabled): no retry, the message goes to the subscription's DLQ at once. The retry schedule itself (100,015
 * retries, then the DLQ) is HttpOutboxTest's, on a manual timer.
 */
class SnsQueueRetryTest extends SqsTestBase {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int BUDGET = 4; // below every queue's reserve (64 indexed messages)
    private SnsClient sns;

    @Override
    protected ServerConfig configure(ServerConfig defaults) {
        return defaults.withMaxIndexedMessages(BUDGET);
    }

    @BeforeEach
    void snsClient() {
        sns = SnsClient.builder().endpointOverride(URI.create(endpoint)).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("000000000000", "test")))
                .httpClient(UrlConnectionHttpClient.builder().socketTimeout(Duration.ofSeconds(30)).build()).build();
    }

    private double metric(String name) throws Exception {
        String exposition = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(endpoint + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        for (String line : exposition.split("\n")) {
            if (line.startsWith(name + " ") || line.startsWith(name + "{")) {
                return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        throw new AssertionError(name + " not in /metrics");
    }

    @Test
    void aThrottledQueueGetsItsCopyOnceItHasRoomAndThePublishStands() throws Exception {
        String topic = sns.createTopic(b -> b.name(unique("busy"))).topicArn();
        String name = unique("busy");
        String url = createQueue(name);
        sns.subscribe(b -> b.topicArn(topic).protocol("sqs").endpoint(arn(name)));
        int filled = 0;
        boolean throttled = false;
        for (; filled < 500 && !throttled; filled++) { // fill the index: the budget, or the queue's reserve of 64
            try {
                sqs.sendMessage(b -> b.queueUrl(url).messageBody("filler"));
            } catch (SqsException e) {
                assertThat(e.awsErrorDetails().errorCode()).isEqualTo("RequestThrottled");
                throttled = true;
                filled--;
            }
        }
        assertThat(throttled).as("the queue refuses sends once the index is full").isTrue();
        double retriedBefore = metric("hikyaku_sns_queue_deliveries_retried_total");

        String id = sns.publish(b -> b.topicArn(topic).message("late but there")).messageId();
        assertThat(id).isNotEmpty(); // the queue refused server-side: the copy is in the outbox, the publish stands
        for (int i = 0; i < 50 && metric("hikyaku_sns_queue_deliveries_retried_total") <= retriedBefore; i++) {
            Thread.sleep(100);
        }
        assertThat(metric("hikyaku_sns_queue_deliveries_retried_total")).isGreaterThan(retriedBefore);

        List<String> bodies = new ArrayList<>();
        for (int i = 0; i < 60 && !bodies.contains("late but there"); i++) {
            for (Message m : sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(10).waitTimeSeconds(1)).messages()) {
                sqs.deleteMessage(b -> b.queueUrl(url).receiptHandle(m.receiptHandle())); // makes room
                bodies.add(m.body().equals("filler") ? "filler" : JSON.readTree(m.body()).path("Message").asText());
            }
        }
        assertThat(bodies).contains("late but there");
        assertThat(bodies).filteredOn("filler"::equals).hasSize(filled);
        assertThat(metric("hikyaku_sns_notifications_failed_total")).isZero();
    }

    @Test
    void aQueueWhoseKeyIsDisabledRefusesClientSideAndTheMessageGoesToTheDlqAtOnce() throws Exception {
        try (KmsClient kms = KmsClient.builder().endpointOverride(URI.create(endpoint)).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("000000000000", "test")))
                .httpClient(UrlConnectionHttpClient.create()).build()) {
            String keyId = kms.createKey(b -> b.description("orders")).keyMetadata().keyId();
            String topic = sns.createTopic(b -> b.name(unique("sealed"))).topicArn();
            String name = unique("sealed");
            String url = sqs.createQueue(b -> b.queueName(name).attributesWithStrings(Map.of("KmsMasterKeyId", keyId))).queueUrl();
            String dlqName = unique("sealed-dlq");
            String dlq = createQueue(dlqName);
            sns.subscribe(b -> b.topicArn(topic).protocol("sqs").endpoint(arn(name))
                    .attributes(Map.of("RedrivePolicy", "{\"deadLetterTargetArn\":\"" + arn(dlqName) + "\"}")));
            kms.disableKey(b -> b.keyId(keyId));
            assertThatThrownBy(() -> sqs.sendMessage(b -> b.queueUrl(url).messageBody("direct")))
                    .isInstanceOfSatisfying(SqsException.class, e -> assertThat(e.awsErrorDetails().errorCode())
                            .isEqualTo("KMS.DisabledException"));
            double retriedBefore = metric("hikyaku_sns_queue_deliveries_retried_total");

            sns.publish(b -> b.topicArn(topic).message("for a sealed queue"));
            // parked before the publish answered: no wait
            List<Message> parked = sqs.receiveMessage(b -> b.queueUrl(dlq)).messages();
            assertThat(parked).hasSize(1);
            assertThat(JSON.readTree(parked.get(0).body()).path("Message").asText()).isEqualTo("for a sealed queue");
            assertThat(metric("hikyaku_sns_queue_deliveries_retried_total")).isEqualTo(retriedBefore);
            assertThat(metric("hikyaku_sns_notifications_redriven_to_dlq_total")).isGreaterThanOrEqualTo(1);
        }
    }
}
