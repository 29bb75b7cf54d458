package io.hikyaku.junit5;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.sns.SnsClient;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.ReceiveMessageResponse;

/** {@code awaitIdle()} returns once what the test's calls started is over: a slow HTTP delivery, a long poll. */
@HikyakuQueue(name = "polled")
class AwaitIdleTest {

    @RegisterExtension
    static HikyakuExtension hikyaku = HikyakuExtension.perClass();

    private static final java.util.regex.Pattern TOKEN = java.util.regex.Pattern.compile("\"Token\"\\s*:\\s*\"([^\"]+)\"");
    private HttpServer endpoint;
    private final List<String> delivered = new CopyOnWriteArrayList<>();

    @BeforeEach
    void slowEndpoint() throws Exception {
        endpoint = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        endpoint.createContext("/slow", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            try {
                Thread.sleep(700); // a slow subscriber: the delivery is in flight meanwhile
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            delivered.add(body);
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        endpoint.start();
    }

    @AfterEach
    void stopEndpoint() {
        endpoint.stop(0);
    }

    @Test
    void anHttpDeliveryInFlightIsWaitedFor(SnsClient sns) {
        String topic = sns.createTopic(r -> r.name("idle")).topicArn();
        String url = "http://127.0.0.1:" + endpoint.getAddress().getPort() + "/slow";
        sns.subscribe(r -> r.topicArn(topic).protocol("http").endpoint(url).attributes(Map.of("RawMessageDelivery", "true")));
        hikyaku.awaitIdle(); // the SubscriptionConfirmation has been POSTed (slowly) by now
        assertThat(delivered).hasSize(1);
        String token = TOKEN.matcher(delivered.get(0)).results().findFirst().orElseThrow().group(1);
        sns.confirmSubscription(r -> r.topicArn(topic).token(token));
        delivered.clear();
        sns.publish(r -> r.topicArn(topic).message("delivered before idle"));
        hikyaku.awaitIdle();
        assertThat(delivered).containsExactly("delivered before idle");
    }

    @Test
    void aLongPollInFlightIsWaitedFor(SqsClient sqs) throws Exception {
        String url = sqs.getQueueUrl(r -> r.queueName("polled")).queueUrl();
        CompletableFuture<ReceiveMessageResponse> poll = CompletableFuture.supplyAsync(
                () -> sqs.receiveMessage(r -> r.queueUrl(url).waitTimeSeconds(1)));
        while (!poll.isDone() && inFlight() == 0) {
            Thread.sleep(5); // until the server holds the poll
        }
        hikyaku.awaitIdle();
        assertThat(poll).isDone();
    }

    private static double inFlight() {
        return hikyaku.server().server().metrics().registry().find("hikyaku.requests.in.flight").gauge().value();
    }
}
