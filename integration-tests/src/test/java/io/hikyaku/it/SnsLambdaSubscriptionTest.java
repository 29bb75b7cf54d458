package io.hikyaku.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import io.hikyaku.it.support.SqsTestBase;
import io.hikyaku.push.FunctionConfig;
import io.hikyaku.push.PushConfig;
import io.hikyaku.server.ServerConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.Signature;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sns.SnsClient;
import software.amazon.awssdk.services.sns.model.MessageAttributeValue;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * {@code lambda} subscriptions on the real server: a push-delivery function of the config file (a JDK HttpServer on
 * loopback) receives Lambda's SNS event for each publish, signed like every copy; a function the config does not
 * declare sends the notification to the subscription's DLQ at once.
 */
class SnsLambdaSubscriptionTest extends SqsTestBase {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String FUNCTIONS = "arn:aws:lambda:us-east-1:000000000000:function:";
    private HttpServer function;
    private final BlockingQueue<String> events = new LinkedBlockingQueue<>();
    private final BlockingQueue<String> otherAccountEvents = new LinkedBlockingQueue<>();
    private SnsClient sns;

    @Override
    protected ServerConfig configure(ServerConfig defaults) {
        try {
            function = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        function.createContext("/other-account", exchange -> {
            otherAccountEvents.add(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        function.createContext("/fn", exchange -> {
            events.add(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        function.start();
        URI url = URI.create("http://127.0.0.1:" + function.getAddress().getPort() + "/fn");
        URI other = URI.create("http://127.0.0.1:" + function.getAddress().getPort() + "/other-account");
        return defaults.withPush(new PushConfig(List.of(new FunctionConfig("fn", url, 5, Map.of(), null),
                new FunctionConfig("theirs", other, 5, Map.of(), null, "222222222222")), List.of()));
    }

    @AfterAll
    void stopFunction() {
        function.stop(0);
    }

    @BeforeEach
    void snsClient() {
        sns = SnsClient.builder().endpointOverride(URI.create(endpoint)).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("000000000000", "test")))
                .httpClient(UrlConnectionHttpClient.builder().socketTimeout(Duration.ofSeconds(30)).build()).build();
    }

    @Test
    void aPublishInvokesTheFunctionWithLambdasSnsEvent() throws Exception {
        String topic = sns.createTopic(b -> b.name(unique("to-lambda"))).topicArn();
        String subscription = sns.subscribe(b -> b.topicArn(topic).protocol("lambda").endpoint(FUNCTIONS + "fn")
                .returnSubscriptionArn(true)).subscriptionArn();
        assertThat(sns.getSubscriptionAttributes(b -> b.subscriptionArn(subscription)).attributes())
                .containsEntry("PendingConfirmation", "false").containsEntry("Protocol", "lambda");
        String id = sns.publish(b -> b.topicArn(topic).message("hello λ").subject("greeting")
                .messageAttributes(Map.of("colour", MessageAttributeValue.builder().dataType("String").stringValue("red").build())))
                .messageId();
        String body = events.poll(20, TimeUnit.SECONDS);
        assertThat(body).as("the function's invocation").isNotNull();
        JsonNode record = JSON.readTree(body).path("Records").path(0);
        assertThat(fields(record)).containsExactly("EventSource", "EventVersion", "EventSubscriptionArn", "Sns");
        assertThat(record.path("EventSource").asText()).isEqualTo("aws:sns");
        assertThat(record.path("EventVersion").asText()).isEqualTo("1.0");
        assertThat(record.path("EventSubscriptionArn").asText()).isEqualTo(subscription);
        JsonNode n = record.path("Sns");
        assertThat(fields(n)).containsExactly("Type", "MessageId", "TopicArn", "Subject", "Message", "Timestamp",
                "SignatureVersion", "Signature", "SigningCertUrl", "UnsubscribeUrl", "MessageAttributes");
        assertThat(n.path("MessageId").asText()).isEqualTo(id);
        assertThat(n.path("Message").asText()).isEqualTo("hello λ");
        assertThat(n.path("Subject").asText()).isEqualTo("greeting");
        assertThat(n.path("MessageAttributes").path("colour").path("Type").asText()).isEqualTo("String");
        assertThat(n.path("MessageAttributes").path("colour").path("Value").asText()).isEqualTo("red");
        assertThat(n.path("UnsubscribeUrl").asText()).endsWith("/?Action=Unsubscribe&SubscriptionArn=" + subscription);
        // the signature verifies with the certificate served at SigningCertUrl, over SNS's notification string to sign
        byte[] pem = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(n.path("SigningCertUrl").asText())).build(),
                HttpResponse.BodyHandlers.ofByteArray()).body();
        X509Certificate cert = (X509Certificate) CertificateFactory.getInstance("X.509")
                .generateCertificate(new java.io.ByteArrayInputStream(pem));
        String toSign = "Message\n" + n.path("Message").asText() + "\nMessageId\n" + id + "\nSubject\ngreeting\nTimestamp\n"
                + n.path("Timestamp").asText() + "\nTopicArn\n" + topic + "\nType\nNotification\n";
        Signature v = Signature.getInstance("SHA1withRSA");
        v.initVerify(cert);
        v.update(toSign.getBytes(StandardCharsets.UTF_8));
        assertThat(v.verify(Base64.getDecoder().decode(n.path("Signature").asText()))).isTrue();

        sns.publish(b -> b.topicArn(topic).message("no subject"));
        JsonNode second = JSON.readTree(events.poll(20, TimeUnit.SECONDS)).path("Records").path(0).path("Sns");
        assertThat(second.get("Subject").isNull()).isTrue();
        assertThat(second.path("MessageAttributes").isEmpty()).isTrue();

        String fifo = sns.createTopic(b -> b.name(unique("ordered") + ".fifo").attributes(Map.of("FifoTopic", "true"))).topicArn();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> sns.subscribe(b -> b.topicArn(fifo).protocol("lambda")
                        .endpoint(FUNCTIONS + "fn")))
                .isInstanceOfSatisfying(software.amazon.awssdk.services.sns.model.InvalidParameterException.class,
                        e -> assertThat(e.awsErrorDetails().errorMessage()).isEqualTo("Invalid parameter: Invalid protocol type: lambda"));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> sns.subscribe(b -> b.topicArn(topic).protocol("lambda")
                        .endpoint("http://127.0.0.1/fn")))
                .isInstanceOfSatisfying(software.amazon.awssdk.services.sns.model.InvalidParameterException.class,
                        e -> assertThat(e.awsErrorDetails().errorMessage()).isEqualTo("Invalid parameter: Lambda endpoint ARN"));
    }

    @Test
    void aFunctionTheConfigDoesNotDeclareSendsTheNotificationToTheSubscriptionsDlq() throws Exception {
        String topic = sns.createTopic(b -> b.name(unique("to-nowhere"))).topicArn();
        String dlqName = unique("lambda-dlq");
        String dlq = createQueue(dlqName);
        sns.subscribe(b -> b.topicArn(topic).protocol("lambda").endpoint(FUNCTIONS + "undeclared")
                .attributes(Map.of("RedrivePolicy", "{\"deadLetterTargetArn\":\"" + arn(dlqName) + "\"}")));
        String id = sns.publish(b -> b.topicArn(topic).message("lost?")).messageId();
        List<Message> parked = new ArrayList<>();
        for (int i = 0; i < 40 && parked.isEmpty(); i++) {
            parked.addAll(sqs.receiveMessage(b -> b.queueUrl(dlq)).messages());
            sleep(parked.isEmpty() ? 250 : 0); // no long poll: the test clock stands still
        }
        assertThat(parked).hasSize(1);
        JsonNode envelope = JSON.readTree(parked.get(0).body());
        assertThat(fields(envelope)).containsExactly("Type", "MessageId", "TopicArn", "Message", "Timestamp",
                "SignatureVersion", "Signature", "SigningCertURL", "UnsubscribeURL");
        assertThat(envelope.path("MessageId").asText()).isEqualTo(id);
        assertThat(envelope.path("Message").asText()).isEqualTo("lost?");
        assertThat(events).isEmpty();
    }

    @Test
    void anotherAccountsFunctionIsNeverInvokedTheNotificationGoesToTheDlq() throws Exception {
        String topic = sns.createTopic(b -> b.name(unique("to-theirs"))).topicArn();
        String dlqName = unique("theirs-dlq");
        String dlq = createQueue(dlqName);
        sns.subscribe(b -> b.topicArn(topic).protocol("lambda").endpoint("arn:aws:lambda:us-east-1:222222222222:function:theirs")
                .attributes(Map.of("RedrivePolicy", "{\"deadLetterTargetArn\":\"" + arn(dlqName) + "\"}")));
        String id = sns.publish(b -> b.topicArn(topic).message("not for another account")).messageId();
        List<Message> parked = new ArrayList<>();
        for (int i = 0; i < 40 && parked.isEmpty(); i++) {
            parked.addAll(sqs.receiveMessage(b -> b.queueUrl(dlq)).messages());
            sleep(parked.isEmpty() ? 250 : 0); // no long poll: the test clock stands still
        }
        assertThat(parked).hasSize(1);
        assertThat(JSON.readTree(parked.get(0).body()).path("MessageId").asText()).isEqualTo(id);
        assertThat(otherAccountEvents).as("the other account's function was called").isEmpty();
    }

    private static List<String> fields(JsonNode n) {
        List<String> out = new ArrayList<>();
        n.fieldNames().forEachRemaining(out::add);
        return out;
    }
}
