package io.hikyaku.pushtests;

import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.push.FunctionConfig;
import io.hikyaku.pushtests.support.PushTestBase;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * Two accounts with the same queue names, each with a dead-letter queue, a running move task and a
 * push mapping to its own function of the same name: one scrape shows both accounts' series apart
 * (move tasks carry the account label) and never fails on duplicate labels; it is built on the
 * scrape thread, not on an event loop (issue 35).
 */
class MetricsAcrossAccountsTest extends PushTestBase {

    private static final String OTHER = "111111111111";
    private final HttpClient http = HttpClient.newHttpClient();

    @Override
    protected List<FunctionConfig> functions() {
        // nothing listens there: deliveries fail and the messages stay, which is all a scrape needs
        URI nowhere = URI.create("http://127.0.0.1:9/invoke");
        return List.of(new FunctionConfig("fn", nowhere, 5, Map.of(), null),
                new FunctionConfig("fn", nowhere, 5, Map.of(), null, OTHER));
    }

    @Test
    void oneScrapeKeepsTwoAccountsWithTheSameNamesApart() throws Exception {
        List<String> scrapeThreads = new CopyOnWriteArrayList<>();
        server.metrics().beforeScrape(() -> scrapeThreads.add(Thread.currentThread().getName()));
        try (SqsClient other = SqsClient.builder().endpointOverride(URI.create(endpoint)).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(OTHER, "test")))
                .httpClient(UrlConnectionHttpClient.builder().build()).build()) {
            for (String account : List.of(ACCOUNT, OTHER)) {
                SqsClient client = account.equals(ACCOUNT) ? sqs : other;
                String dlq = client.createQueue(b -> b.queueName("orders-dlq")).queueUrl();
                String dlqArn = "arn:aws:sqs:us-east-1:" + account + ":orders-dlq";
                client.createQueue(b -> b.queueName("orders").attributes(Map.of(QueueAttributeName.REDRIVE_POLICY,
                        "{\"deadLetterTargetArn\":\"" + dlqArn + "\",\"maxReceiveCount\":\"5\"}")));
                for (int i = 0; i < 3; i++) {
                    client.sendMessage(b -> b.queueUrl(dlq).messageBody("stuck"));
                }
                // a slow task stays RUNNING while the test scrapes
                client.startMessageMoveTask(b -> b.sourceArn(dlqArn).maxNumberOfMessagesPerSecond(1));
                LambdaResponse created = lambdaAs(account, "POST", "/2015-03-31/event-source-mappings/",
                        "{\"FunctionName\":\"fn\",\"EventSourceArn\":\"arn:aws:sqs:us-east-1:" + account + ":orders\"}");
                assertThat(created.status()).as(created.body().toString()).isEqualTo(202);
            }

            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(endpoint + "/metrics"))
                    .timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
            String text = r.body();
            for (String account : List.of(ACCOUNT, OTHER)) {
                assertThat(text).contains("hikyaku_sqs_move_task_messages_to_move{account=\"" + account + "\",destination=\"\",source=\"orders-dlq\"")
                        .contains("account=\"" + account + "\",function=\"fn\",queue=\"orders\"")
                        .contains("{account=\"" + account + "\",queue=\"orders-dlq\"");
            }
            assertThat(scrapeThreads).isNotEmpty().allMatch(name -> name.equals("hikyaku-metrics-scrape"));
        }
    }
}
