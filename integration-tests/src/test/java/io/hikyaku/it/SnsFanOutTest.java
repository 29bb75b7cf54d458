package io.hikyaku.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hikyaku.it.support.SqsTestBase;
import java.net.URI;
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
import software.amazon.awssdk.services.sns.SnsClient;
import software.amazon.awssdk.services.sns.model.MessageAttributeValue;
import software.amazon.awssdk.services.sns.model.NotFoundException;
import software.amazon.awssdk.services.sns.model.Topic;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/** SNS on the real server with the AWS SDK for Java v2 sns client: topics fanned out to the server's queues. */
class SnsFanOutTest extends SqsTestBase {

    private static final ObjectMapper JSON = new ObjectMapper();
    private SnsClient sns;

    @BeforeEach
    void snsClient() {
        sns = SnsClient.builder().endpointOverride(URI.create(endpoint)).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("000000000000", "test")))
                .httpClient(UrlConnectionHttpClient.builder().socketTimeout(Duration.ofSeconds(30)).build())
                .build();
    }

    private List<Message> receiveAll(String url) {
        List<Message> out = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            out.addAll(sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(10)
                    .messageAttributeNames("All").messageSystemAttributeNames(MessageSystemAttributeName.ALL)).messages());
        }
        return out;
    }

    @Test
    void fanOutToTwoQueuesOneFilteredAndRawDelivery() throws Exception {
        String topic = sns.createTopic(b -> b.name(unique("orders"))).topicArn();
        assertThat(sns.listTopics().topics()).extracting(Topic::topicArn).contains(topic);
        String all = unique("all");
        String shoes = unique("shoes");
        String raw = unique("raw");
        String allUrl = sqs.createQueue(b -> b.queueName(all)).queueUrl();
        String shoesUrl = sqs.createQueue(b -> b.queueName(shoes)).queueUrl();
        String rawUrl = sqs.createQueue(b -> b.queueName(raw)).queueUrl();
        sns.subscribe(b -> b.topicArn(topic).protocol("sqs").endpoint(arn(all)).returnSubscriptionArn(true));
        String filtered = sns.subscribe(b -> b.topicArn(topic).protocol("sqs").endpoint(arn(shoes))
                .attributes(Map.of("FilterPolicy", "{\"kind\":[\"shoes\"]}")).returnSubscriptionArn(true)).subscriptionArn();
        sns.subscribe(b -> b.topicArn(topic).protocol("sqs").endpoint(arn(raw))
                .attributes(Map.of("RawMessageDelivery", "true")).returnSubscriptionArn(true));
        assertThat(sns.getSubscriptionAttributes(b -> b.subscriptionArn(filtered)).attributes())
                .containsEntry("FilterPolicyScope", "MessageAttributes").containsEntry("PendingConfirmation", "false");

        String id = sns.publish(b -> b.topicArn(topic).message("hats please").subject("order")
                .messageAttributes(Map.of("kind", MessageAttributeValue.builder().dataType("String").stringValue("hats").build())))
                .messageId();
        sns.publish(b -> b.topicArn(topic).message("shoes please")
                .messageAttributes(Map.of("kind", MessageAttributeValue.builder().dataType("String").stringValue("shoes").build())));

        List<Message> everything = receiveAll(allUrl);
        assertThat(everything).hasSize(2);
        JsonNode envelope = everything.stream().map(m -> read(m.body()))
                .filter(e -> e.path("MessageId").asText().equals(id)).findFirst().orElseThrow();
        assertThat(envelope.path("Type").asText()).isEqualTo("Notification");
        assertThat(envelope.path("TopicArn").asText()).isEqualTo(topic);
        assertThat(envelope.path("Subject").asText()).isEqualTo("order");
        assertThat(envelope.path("Message").asText()).isEqualTo("hats please");
        assertThat(envelope.path("MessageAttributes").path("kind").path("Value").asText()).isEqualTo("hats");

        List<Message> onlyShoes = receiveAll(shoesUrl);
        assertThat(onlyShoes).hasSize(1);
        assertThat(read(onlyShoes.get(0).body()).path("Message").asText()).isEqualTo("shoes please");

        List<Message> rawMessages = receiveAll(rawUrl);
        assertThat(rawMessages).extracting(Message::body).containsExactlyInAnyOrder("hats please", "shoes please");
        assertThat(rawMessages.get(0).messageAttributes()).containsKey("kind");

        sns.deleteTopic(b -> b.topicArn(topic));
        assertThatThrownBy(() -> sns.getTopicAttributes(b -> b.topicArn(topic))).isInstanceOf(NotFoundException.class)
                .hasMessageContaining("Topic does not exist");
    }

    @Test
    void fifoTopicToFifoQueueKeepsOrder() {
        String name = uniqueFifo("t");
        String topic = sns.createTopic(b -> b.name(name).attributes(Map.of("FifoTopic", "true",
                "ContentBasedDeduplication", "true"))).topicArn();
        String queue = uniqueFifo("q");
        String url = sqs.createQueue(b -> b.queueName(queue).attributes(Map.of(QueueAttributeName.FIFO_QUEUE, "true"))).queueUrl();
        sns.subscribe(b -> b.topicArn(topic).protocol("sqs").endpoint(arn(queue)));
        for (int i = 0; i < 5; i++) {
            int n = i;
            assertThat(sns.publish(b -> b.topicArn(topic).message("m" + n).messageGroupId("g")).sequenceNumber()).hasSize(20);
        }
        List<String> bodies = new ArrayList<>();
        for (Message m : receiveAll(url)) {
            bodies.add(read(m.body()).path("Message").asText());
            assertThat(m.attributes()).containsEntry(MessageSystemAttributeName.MESSAGE_GROUP_ID, "g");
        }
        assertThat(bodies).containsExactly("m0", "m1", "m2", "m3", "m4");
    }

    /** The current boto3 (python3 on the path) and Debian's older one when installed. */
    static List<String> pythons() {
        List<String> p = new ArrayList<>(List.of("python3"));
        if (java.nio.file.Files.isExecutable(java.nio.file.Path.of("/usr/bin/python3"))) {
            p.add("/usr/bin/python3");
        }
        return p;
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.MethodSource("pythons")
    void boto3FanOut(String python) throws Exception {
        java.nio.file.Path script = java.nio.file.Path.of("src", "test", "resources", "sns_fanout_boto3.py").toAbsolutePath();
        ProcessBuilder pb = new ProcessBuilder(python, script.toString(), endpoint);
        pb.environment().put("AWS_EC2_METADATA_DISABLED", "true");
        pb.redirectErrorStream(true);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        assertThat(out).startsWith("ok: boto3");
    }

    private static JsonNode read(String body) {
        try {
            return JSON.readTree(body);
        } catch (Exception e) {
            throw new AssertionError("not JSON: " + body, e);
        }
    }

    @Test
    void anotherAccountsQueueIsConfirmedByItsOwnerFromTheConfirmationInTheQueue() throws Exception {
        String other = "111111111111";
        software.amazon.awssdk.services.sqs.SqsClient owner = v2Client(other);
        String name = unique("theirs");
        String url = owner.createQueue(b -> b.queueName(name)).queueUrl();
        String queueArn = arn(other, name);
        String topic = sns.createTopic(b -> b.name(unique("shared"))).topicArn();
        String answer = sns.subscribe(b -> b.topicArn(topic).protocol("sqs").endpoint(queueArn)).subscriptionArn();
        assertThat(answer).isEqualTo("pending confirmation");
        List<Message> got = new ArrayList<>();
        for (int i = 0; i < 20 && got.isEmpty(); i++) {
            got.addAll(owner.receiveMessage(b -> b.queueUrl(url)).messages());
            sleep(got.isEmpty() ? 250 : 0); // no long poll: the test clock stands still
        }
        assertThat(got).hasSize(1);
        JsonNode c = JSON.readTree(got.get(0).body());
        List<String> keys = new ArrayList<>();
        c.fieldNames().forEachRemaining(keys::add);
        assertThat(keys).containsExactly("Type", "MessageId", "Token", "TopicArn", "Message", "SubscribeURL", "Timestamp",
                "SignatureVersion", "Signature", "SigningCertURL");
        assertThat(c.path("Type").asText()).isEqualTo("SubscriptionConfirmation");
        assertThat(c.path("TopicArn").asText()).isEqualTo(topic);
        sns.publish(b -> b.topicArn(topic).message("before the confirmation"));
        SnsClient ownersSns = SnsClient.builder().endpointOverride(URI.create(endpoint)).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(other, "test")))
                .httpClient(UrlConnectionHttpClient.builder().build()).build();
        String arn = ownersSns.confirmSubscription(b -> b.topicArn(topic).token(c.path("Token").asText())).subscriptionArn();
        assertThat(sns.getSubscriptionAttributes(b -> b.subscriptionArn(arn)).attributes())
                .containsEntry("PendingConfirmation", "false").containsEntry("Endpoint", queueArn);
        owner.deleteMessage(b -> b.queueUrl(url).receiptHandle(got.get(0).receiptHandle()));
        sns.publish(b -> b.topicArn(topic).message("after the confirmation"));
        List<Message> after = new ArrayList<>();
        for (int i = 0; i < 10 && after.isEmpty(); i++) {
            after.addAll(owner.receiveMessage(b -> b.queueUrl(url)).messages());
            sleep(after.isEmpty() ? 250 : 0);
        }
        assertThat(after).extracting(m -> JSON.readTree(m.body()).path("Message").asText()).containsExactly("after the confirmation");
        // the same account's queues are confirmed at once and get no confirmation message
        String mine = unique("mine");
        String myUrl = createQueue(mine);
        assertThat(sns.subscribe(b -> b.topicArn(topic).protocol("sqs").endpoint(arn(mine)).returnSubscriptionArn(true))
                .subscriptionArn()).startsWith(topic + ":");
        sleep(500);
        assertThat(sqs.receiveMessage(b -> b.queueUrl(myUrl)).messages()).isEmpty();
    }
}
