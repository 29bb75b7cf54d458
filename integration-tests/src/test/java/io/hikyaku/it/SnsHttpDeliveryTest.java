package io.hikyaku.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import io.hikyaku.it.support.SqsTestBase;
import java.io.ByteArrayInputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.Signature;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sns.SnsClient;
import software.amazon.awssdk.services.sns.model.InvalidParameterException;
import software.amazon.awssdk.services.sns.model.MessageAttributeValue;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * HTTP subscriptions on the real server: a JDK HttpServer on loopback is the subscriber. It confirms through the
 * SubscribeURL, checks the headers, verifies every signature with the certificate fetched from the SigningCertURL
 * (in Java here and in Python as subscribers do), fails the first posts on demand to see SNS's retries, and always
 * fails to see the subscription DLQ. Subscribing an address outside the outbound allow-list is refused.
 */
class SnsHttpDeliveryTest extends SqsTestBase {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient web = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private SnsClient sns;
    private HttpServer subscriber;
    private String hooks;
    /** Per path: what was POSTed there, and how many POSTs to fail with 500 first (-1: fail all). */
    private final Map<String, BlockingQueue<Received>> received = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> failFirst = new ConcurrentHashMap<>();
    private final Map<String, Boolean> doNotConfirm = new ConcurrentHashMap<>();

    @TempDir
    Path tmp;

    record Received(Map<String, String> headers, String body, long atNanos) {
        JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (Exception e) {
                throw new AssertionError("not JSON: " + body, e);
            }
        }
    }

    @BeforeAll
    void startSubscriber() throws Exception {
        subscriber = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        subscriber.createContext("/", exchange -> {
            String path = exchange.getRequestURI().getPath();
            Map<String, String> headers = new java.util.TreeMap<>(String.CASE_INSENSITIVE_ORDER);
            exchange.getRequestHeaders().forEach((k, v) -> headers.put(k, v.get(0)));
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            received.computeIfAbsent(path, p -> new LinkedBlockingQueue<>()).add(new Received(headers, body, System.nanoTime()));
            AtomicInteger fail = failFirst.get(path);
            int status = 200;
            if (fail != null && "Notification".equals(headers.get("x-amz-sns-message-type"))
                    && (fail.get() < 0 || fail.getAndDecrement() > 0)) {
                status = 500;
            } else if ("SubscriptionConfirmation".equals(headers.get("x-amz-sns-message-type")) && !doNotConfirm.containsKey(path)) {
                try {
                    String url = JSON.readTree(body).path("SubscribeURL").asText();
                    HttpResponse<String> r = web.send(HttpRequest.newBuilder(URI.create(url)).GET().build(),
                            HttpResponse.BodyHandlers.ofString());
                    status = r.statusCode() == 200 ? 200 : 502;
                } catch (Exception e) {
                    status = 502;
                }
            }
            exchange.sendResponseHeaders(status, -1);
            exchange.close();
        });
        subscriber.start();
        hooks = "http://127.0.0.1:" + subscriber.getAddress().getPort();
    }

    @AfterAll
    void stopSubscriber() {
        subscriber.stop(0);
    }

    @BeforeEach
    void snsClient() {
        sns = SnsClient.builder().endpointOverride(URI.create(endpoint)).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("000000000000", "test")))
                .httpClient(UrlConnectionHttpClient.builder().socketTimeout(Duration.ofSeconds(30)).build())
                .build();
    }

    private Received next(String path) throws InterruptedException {
        Received r = received.computeIfAbsent(path, p -> new LinkedBlockingQueue<>()).poll(20, TimeUnit.SECONDS);
        assertThat(r).as("a POST to " + path).isNotNull();
        return r;
    }

    private String subscribeConfirmed(String topic, String path, Map<String, String> attributes) throws Exception {
        String answer = sns.subscribe(b -> b.topicArn(topic).protocol("http").endpoint(hooks + path)
                .attributes(attributes)).subscriptionArn();
        assertThat(answer).isEqualTo("pending confirmation");
        Received confirmation = next(path);
        assertThat(confirmation.headers().get("x-amz-sns-message-type")).isEqualTo("SubscriptionConfirmation");
        String arn = awaitConfirmed(topic, hooks + path);
        return arn;
    }

    private String awaitConfirmed(String topic, String endpointUrl) throws InterruptedException {
        for (int i = 0; i < 100; i++) {
            for (var s : sns.listSubscriptionsByTopic(b -> b.topicArn(topic)).subscriptions()) {
                if (s.endpoint().equals(endpointUrl) && !s.subscriptionArn().equals("PendingConfirmation")) {
                    return s.subscriptionArn();
                }
            }
            Thread.sleep(100);
        }
        throw new AssertionError("not confirmed: " + endpointUrl);
    }

    /** What a subscriber does: fetch the certificate from SigningCertURL and verify the documented string to sign. */
    private static void verify(JsonNode m) throws Exception {
        String url = m.path("SigningCertURL").asText();
        assertThat(url).matches("http://127\\.0\\.0\\.1:\\d+/_aws/sns/SimpleNotificationService-[0-9a-f]{32}\\.pem");
        byte[] pem = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url)).build(),
                HttpResponse.BodyHandlers.ofByteArray()).body();
        X509Certificate cert = (X509Certificate) CertificateFactory.getInstance("X.509")
                .generateCertificate(new ByteArrayInputStream(pem));
        List<String> keys = m.path("Type").asText().equals("Notification")
                ? List.of("Message", "MessageId", "Subject", "Timestamp", "TopicArn", "Type")
                : List.of("Message", "MessageId", "SubscribeURL", "Timestamp", "Token", "TopicArn", "Type");
        StringBuilder toSign = new StringBuilder();
        for (String k : keys) {
            if (m.has(k)) {
                toSign.append(k).append('\n').append(m.get(k).asText()).append('\n');
            }
        }
        Signature s = Signature.getInstance(m.path("SignatureVersion").asText().equals("2") ? "SHA256withRSA" : "SHA1withRSA");
        s.initVerify(cert.getPublicKey());
        s.update(toSign.toString().getBytes(StandardCharsets.UTF_8));
        assertThat(s.verify(Base64.getDecoder().decode(m.path("Signature").asText()))).as("signature of " + m).isTrue();
    }

    private static List<String> keys(JsonNode n) {
        List<String> out = new ArrayList<>();
        for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
            out.add(it.next());
        }
        return out;
    }

    private String pythonCheck(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("python3",
                Path.of("src", "test", "resources", "sns_http_check.py").toAbsolutePath().toString()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().put("AWS_EC2_METADATA_DISABLED", "true");
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        return out;
    }

    @Test
    void unsubscribeSendsASignedUnsubscribeConfirmation() throws Exception {
        String topic = sns.createTopic(b -> b.name(unique("bye")).attributes(Map.of("SignatureVersion", "2"))).topicArn();
        String arn = subscribeConfirmed(topic, "/bye", Map.of());
        sns.unsubscribe(b -> b.subscriptionArn(arn));
        Received farewell = next("/bye");
        assertThat(farewell.headers()).containsEntry("x-amz-sns-message-type", "UnsubscribeConfirmation")
                .containsEntry("x-amz-sns-subscription-arn", arn).containsEntry("x-amz-sns-topic-arn", topic)
                .containsEntry("User-Agent", "Amazon Simple Notification Service Agent")
                .containsEntry("Content-Type", "text/plain; charset=UTF-8");
        JsonNode m = farewell.json();
        assertThat(keys(m)).containsExactly("Type", "MessageId", "Token", "TopicArn", "Message", "SubscribeURL",
                "Timestamp", "SignatureVersion", "Signature", "SigningCertURL");
        assertThat(m.path("Type").asText()).isEqualTo("UnsubscribeConfirmation");
        assertThat(m.path("Message").asText()).isEqualTo("You have chosen to deactivate subscription " + arn
                + ".\nTo cancel this operation and restore the subscription, visit the SubscribeURL included in this message.");
        assertThat(farewell.headers().get("x-amz-sns-message-id")).isEqualTo(m.path("MessageId").asText());
        assertThat(m.path("SubscribeURL").asText()).startsWith(endpoint + "/?Action=ConfirmSubscription&TopicArn=" + topic + "&Token=");
        assertThat(m.path("SignatureVersion").asText()).isEqualTo("2");
        verify(m);
        assertThat(sns.listSubscriptionsByTopic(b -> b.topicArn(topic)).subscriptions()).isEmpty();
        sns.publish(b -> b.topicArn(topic).message("after the farewell"));
        assertThat(received.get("/bye").poll(500, TimeUnit.MILLISECONDS)).as("nothing after the unsubscribe").isNull();

        // the farewell's SubscribeURL (unsigned GET, as a subscriber visits it) restores the same subscription
        HttpResponse<String> restored = web.send(HttpRequest.newBuilder(URI.create(m.path("SubscribeURL").asText())).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(restored.statusCode()).as(restored.body()).isEqualTo(200);
        assertThat(restored.body()).contains("<SubscriptionArn>" + arn + "</SubscriptionArn>");
        assertThat(sns.listSubscriptionsByTopic(b -> b.topicArn(topic)).subscriptions())
                .extracting(s -> s.subscriptionArn()).containsExactly(arn);
        sns.publish(b -> b.topicArn(topic).message("welcome back"));
        assertThat(next("/bye").json().path("Message").asText()).isEqualTo("welcome back");
        HttpResponse<String> again = web.send(HttpRequest.newBuilder(URI.create(m.path("SubscribeURL").asText())).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(again.statusCode()).as("a restore token works once").isEqualTo(400);
    }

    @Test
    void confirmationThroughTheSubscribeUrlThenSignedNotificationsV1V2AndRaw() throws Exception {
        String topic = sns.createTopic(b -> b.name(unique("web"))).topicArn();
        String answer = sns.subscribe(b -> b.topicArn(topic).protocol("http").endpoint(hooks + "/a")).subscriptionArn();
        assertThat(answer).isEqualTo("pending confirmation");
        Received confirmation = next("/a");
        assertThat(confirmation.headers()).containsEntry("Content-Type", "text/plain; charset=UTF-8")
                .containsEntry("x-amz-sns-message-type", "SubscriptionConfirmation")
                .containsEntry("x-amz-sns-topic-arn", topic)
                .containsEntry("User-Agent", "Amazon Simple Notification Service Agent");
        JsonNode c = confirmation.json();
        assertThat(keys(c)).containsExactly("Type", "MessageId", "Token", "TopicArn", "Message", "SubscribeURL",
                "Timestamp", "SignatureVersion", "Signature", "SigningCertURL");
        assertThat(confirmation.headers().get("x-amz-sns-message-id")).isEqualTo(c.path("MessageId").asText());
        assertThat(c.path("SubscribeURL").asText()).isEqualTo(endpoint + "/?Action=ConfirmSubscription&TopicArn="
                + topic + "&Token=" + c.path("Token").asText());
        assertThat(c.path("Message").asText()).isEqualTo("You have chosen to subscribe to the topic " + topic
                + ".\nTo confirm the subscription, visit the SubscribeURL included in this message.");
        verify(c);
        String arn = awaitConfirmed(topic, hooks + "/a");
        assertThat(sns.getSubscriptionAttributes(b -> b.subscriptionArn(arn)).attributes())
                .containsEntry("PendingConfirmation", "false").containsEntry("ConfirmationWasAuthenticated", "false");

        String id = sns.publish(b -> b.topicArn(topic).message("hello web").subject("greeting")
                .messageAttributes(Map.of("kind", MessageAttributeValue.builder().dataType("String").stringValue("hi").build())))
                .messageId();
        Received n1 = next("/a");
        assertThat(n1.headers()).containsEntry("x-amz-sns-message-type", "Notification")
                .containsEntry("x-amz-sns-message-id", id).containsEntry("x-amz-sns-subscription-arn", arn)
                .doesNotContainKey("x-amz-sns-rawdelivery");
        JsonNode m1 = n1.json();
        assertThat(keys(m1)).containsExactly("Type", "MessageId", "TopicArn", "Subject", "Message", "Timestamp",
                "SignatureVersion", "Signature", "SigningCertURL", "UnsubscribeURL", "MessageAttributes");
        assertThat(m1.path("SignatureVersion").asText()).isEqualTo("1");
        assertThat(m1.path("MessageAttributes").path("kind").path("Value").asText()).isEqualTo("hi");
        verify(m1);

        sns.setTopicAttributes(b -> b.topicArn(topic).attributeName("SignatureVersion").attributeValue("2"));
        sns.publish(b -> b.topicArn(topic).message("second, signed with SHA256"));
        JsonNode m2 = next("/a").json();
        assertThat(m2.path("SignatureVersion").asText()).isEqualTo("2");
        assertThat(m2.has("Subject")).isFalse();
        verify(m2);

        List<String> files = new ArrayList<>(List.of("verify", endpoint));
        int i = 0;
        for (JsonNode m : List.of(c, m1, m2)) {
            Path f = tmp.resolve("m" + (i++) + ".json");
            Files.writeString(f, m.toString());
            files.add(f.toString());
        }
        assertThat(pythonCheck(files.toArray(new String[0]))).startsWith("ok: 3 verified").contains("versions 1,2");

        String rawArn = subscribeConfirmed(topic, "/raw", Map.of("RawMessageDelivery", "true"));
        sns.publish(b -> b.topicArn(topic).message("just the body"));
        next("/a");
        Received raw = next("/raw");
        assertThat(raw.body()).isEqualTo("just the body");
        assertThat(raw.headers()).containsEntry("x-amz-sns-rawdelivery", "true").containsEntry("x-amz-sns-subscription-arn", rawArn);

        // the UnsubscribeURL works unsigned for a subscription confirmed by token
        HttpResponse<String> off = web.send(HttpRequest.newBuilder(URI.create(m1.path("UnsubscribeURL").asText())).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(off.statusCode()).as(off.body()).isEqualTo(200);
        assertThat(sns.listSubscriptionsByTopic(b -> b.topicArn(topic)).subscriptions()).extracting(s -> s.endpoint())
                .containsExactly(hooks + "/raw");
    }

    @Test
    void aFailingEndpointIsRetriedOnItsDeliveryPolicyWithTheSameMessage() throws Exception {
        String topic = sns.createTopic(b -> b.name(unique("retry"))).topicArn();
        failFirst.put("/flaky", new AtomicInteger(2));
        subscribeConfirmed(topic, "/flaky", Map.of("DeliveryPolicy", "{\"healthyRetryPolicy\":{\"numRetries\":3,"
                + "\"minDelayTarget\":1,\"maxDelayTarget\":1,\"backoffFunction\":\"linear\"}}"));
        String id = sns.publish(b -> b.topicArn(topic).message("try again")).messageId();
        Received first = next("/flaky");
        Received second = next("/flaky");
        Received third = next("/flaky");
        for (Received r : List.of(first, second, third)) {
            assertThat(r.json().path("MessageId").asText()).isEqualTo(id);
            assertThat(r.body()).isEqualTo(first.body()); // the same bytes, signature included
        }
        assertThat(TimeUnit.NANOSECONDS.toMillis(third.atNanos() - first.atNanos())).isGreaterThanOrEqualTo(1_900);
        assertThat(received.get("/flaky").poll(1_500, TimeUnit.MILLISECONDS)).as("no fourth POST after a 200").isNull();
    }

    @Test
    void throttlePolicySpacesDeliveriesAndBadDeliveryPoliciesAreRefused() throws Exception {
        String topic = sns.createTopic(b -> b.name(unique("paced"))).topicArn();
        String arn = subscribeConfirmed(topic, "/paced", Map.of("DeliveryPolicy",
                "{\"throttlePolicy\":{\"maxReceivesPerSecond\":4}}"));
        assertThat(sns.getSubscriptionAttributes(b -> b.subscriptionArn(arn)).attributes().get("EffectiveDeliveryPolicy"))
                .contains("\"throttlePolicy\":{\"maxReceivesPerSecond\":4}");
        for (int i = 0; i < 5; i++) {
            int n = i;
            sns.publish(b -> b.topicArn(topic).message("paced " + n));
        }
        List<Received> got = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            got.add(next("/paced"));
        }
        // 5 deliveries at 4 per second: at least 4 gaps of 250 ms between the first and the last
        assertThat(TimeUnit.NANOSECONDS.toMillis(got.get(4).atNanos() - got.get(0).atNanos())).isGreaterThanOrEqualTo(950);
        assertThat(got).extracting(r -> r.json().path("Message").asText())
                .containsExactlyInAnyOrder("paced 0", "paced 1", "paced 2", "paced 3", "paced 4");
        String metrics = web.send(HttpRequest.newBuilder(URI.create(endpoint + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        assertThat(metric(metrics, "hikyaku_sns_http_deliveries_throttled_total")).isGreaterThanOrEqualTo(1);

        assertThatThrownBy(() -> sns.setSubscriptionAttributes(b -> b.subscriptionArn(arn).attributeName("DeliveryPolicy")
                .attributeValue("{\"healthyRetryPolicy\":{\"numRetries\":101}}")))
                .isInstanceOfSatisfying(InvalidParameterException.class, e -> assertThat(e.awsErrorDetails().errorMessage())
                        .isEqualTo("Invalid parameter: DeliveryPolicy: healthyRetryPolicy.numRetries must be between 0 and 100"));
        assertThatThrownBy(() -> sns.setTopicAttributes(b -> b.topicArn(topic).attributeName("DeliveryPolicy")
                .attributeValue("{\"http\":{\"defaultHealthyRetryPolicy\":{\"backoffFunction\":\"cubic\"}}}")))
                .isInstanceOfSatisfying(InvalidParameterException.class, e -> assertThat(e.awsErrorDetails().errorMessage())
                        .isEqualTo("Invalid parameter: DeliveryPolicy: http.defaultHealthyRetryPolicy.backoffFunction must be one of "
                                + "linear, arithmetic, geometric, exponential"));
    }

    @Test
    void aUsedUpScheduleParksTheMessageInTheSubscriptionDlq() throws Exception {
        String topic = sns.createTopic(b -> b.name(unique("dlq"))).topicArn();
        String dlq = unique("http-dlq");
        String dlqUrl = sqs.createQueue(b -> b.queueName(dlq)).queueUrl();
        failFirst.put("/down", new AtomicInteger(-1));
        subscribeConfirmed(topic, "/down", Map.of(
                "DeliveryPolicy", "{\"healthyRetryPolicy\":{\"numRetries\":1,\"minDelayTarget\":1,\"maxDelayTarget\":1}}",
                "RedrivePolicy", "{\"deadLetterTargetArn\":\"arn:aws:sqs:us-east-1:000000000000:" + dlq + "\"}"));
        String id = sns.publish(b -> b.topicArn(topic).message("nobody home")).messageId();
        next("/down");
        next("/down");
        List<Message> parked = new ArrayList<>();
        for (int i = 0; i < 50 && parked.isEmpty(); i++) {
            parked.addAll(sqs.receiveMessage(b -> b.queueUrl(dlqUrl).waitTimeSeconds(1)).messages());
        }
        assertThat(parked).hasSize(1);
        JsonNode body = JSON.readTree(parked.get(0).body());
        assertThat(body.path("MessageId").asText()).isEqualTo(id);
        assertThat(body.path("Message").asText()).isEqualTo("nobody home");
        String metrics = "";
        for (int i = 0; i < 50; i++) { // the outbox counts the DLQ hand-off just after the DLQ has the message
            metrics = web.send(HttpRequest.newBuilder(URI.create(endpoint + "/metrics")).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            if (metric(metrics, "hikyaku_sns_http_deliveries_dead_lettered_total") >= 1) {
                break;
            }
            Thread.sleep(100);
        }
        String snsLines = String.join("\n", java.util.Arrays.stream(metrics.split("\n"))
                .filter(l -> l.startsWith("hikyaku_sns")).toList());
        assertThat(metric(metrics, "hikyaku_sns_http_deliveries_dead_lettered_total")).as(snsLines).isGreaterThanOrEqualTo(1);
        assertThat(metric(metrics, "hikyaku_sns_notifications_failed_total")).isGreaterThanOrEqualTo(1);
        assertThat(metric(metrics, "hikyaku_sns_messages_published_total")).isGreaterThanOrEqualTo(1);
        assertThat(metric(metrics, "hikyaku_sns_http_outbox_capacity")).isEqualTo(10_000);
    }

    private static double metric(String exposition, String name) {
        for (String line : exposition.split("\n")) {
            if (line.startsWith(name + " ") || line.startsWith(name + "{")) {
                return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        throw new AssertionError(name + " not in /metrics:\n" + exposition);
    }

    @Test
    void destinationsOutsideTheOutboundAllowListAreRefusedAndNothingIsSent() {
        String topic = sns.createTopic(b -> b.name(unique("ssrf"))).topicArn();
        for (String target : List.of("http://example.com/", "http://169.254.169.254/latest/meta-data/",
                "http://10.0.0.1:8080/admin", "https://[fd00::1]/")) {
            String protocol = target.startsWith("https") ? "https" : "http";
            assertThatThrownBy(() -> sns.subscribe(b -> b.topicArn(topic).protocol(protocol).endpoint(target)))
                    .as(target).isInstanceOfSatisfying(InvalidParameterException.class, e -> {
                        assertThat(e.statusCode()).isEqualTo(400);
                        assertThat(e.awsErrorDetails().errorCode()).isEqualTo("InvalidParameter");
                        assertThat(e.awsErrorDetails().errorMessage()).startsWith("Invalid parameter: Endpoint Reason: ")
                                .contains("outbound allow-list");
                    });
        }
        assertThat(sns.listSubscriptionsByTopic(b -> b.topicArn(topic)).subscriptions()).isEmpty();
    }

    @Test
    void boto3AndTheAwsCliSubscribeHttpEndpointsThatConfirm() throws Exception {
        String topic = sns.createTopic(b -> b.name(unique("clients"))).topicArn();
        assertThat(pythonCheck("subscribe", endpoint, topic, hooks + "/boto3")).startsWith("ok: boto3 ")
                .contains("pending confirmation");
        next("/boto3");
        awaitConfirmed(topic, hooks + "/boto3");

        ProcessBuilder pb = new ProcessBuilder("aws", "sns", "subscribe", "--endpoint-url", endpoint, "--topic-arn", topic,
                "--protocol", "http", "--notification-endpoint", hooks + "/cli", "--output", "json").redirectErrorStream(true);
        pb.environment().put("AWS_ACCESS_KEY_ID", "000000000000");
        pb.environment().put("AWS_SECRET_ACCESS_KEY", "test");
        pb.environment().put("AWS_DEFAULT_REGION", "us-east-1");
        pb.environment().put("AWS_EC2_METADATA_DISABLED", "true");
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        assertThat(out).contains("\"SubscriptionArn\": \"pending confirmation\"");
        next("/cli");
        awaitConfirmed(topic, hooks + "/cli");
        sns.publish(b -> b.topicArn(topic).message("to both"));
        assertThat(next("/boto3").json().path("Message").asText()).isEqualTo("to both");
        assertThat(next("/cli").json().path("Message").asText()).isEqualTo("to both");
    }
}
