package io.hikyaku.it.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sns.SnsClient;
import software.amazon.awssdk.services.sns.model.AuthorizationErrorException;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/** SNS with --auth sigv4: requests signed for service sns, authorized as sns:<Action> by identity policies. */
class SnsAuthorizationTest extends AuthTestBase {

    private SnsClient sns(String keyId, String secret) {
        return SnsClient.builder().endpointOverride(URI.create(endpoint)).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(keyId, secret)))
                .httpClient(UrlConnectionHttpClient.builder().build()).build();
    }

    @Test
    void aUserWithoutSnsPermissionsIsRefusedAndTheRootActsInItsAccount() {
        try (SnsClient root = sns(ROOT_A, ROOT_A_SECRET); SnsClient alice = sns(ALICE_1, ALICE_SECRET)) {
            String topic = root.createTopic(b -> b.name("alerts")).topicArn();
            assertThat(topic).isEqualTo("arn:aws:sns:us-east-1:" + A + ":alerts");
            assertThatThrownBy(() -> alice.publish(b -> b.topicArn(topic).message("x")))
                    .isInstanceOfSatisfying(AuthorizationErrorException.class, e -> {
                        assertThat(e.statusCode()).isEqualTo(403);
                        assertThat(e.awsErrorDetails().errorCode()).isEqualTo("AuthorizationError");
                        assertThat(e.awsErrorDetails().errorMessage()).startsWith("User: arn:aws:iam::" + A
                                + ":user/alice is not authorized to perform: sns:Publish on resource: " + topic);
                    });
            assertThat(root.listTopics().topics()).extracting(t -> t.topicArn()).contains(topic);
        }
    }

    @Test
    void theTopicPolicyGrantsOtherAccountsAndUsersAndItsDenyWins() {
        try (SnsClient root = sns(ROOT_A, ROOT_A_SECRET); SnsClient rootB = sns(ROOT_B, ROOT_B_SECRET);
             SnsClient alice = sns(ALICE_1, ALICE_SECRET)) {
            String topic = root.createTopic(b -> b.name("shared")).topicArn();
            // the default policy lets only the owner's account in
            assertThatThrownBy(() -> rootB.publish(b -> b.topicArn(topic).message("x")))
                    .isInstanceOfSatisfying(AuthorizationErrorException.class, e -> assertThat(e.awsErrorDetails().errorMessage())
                            .isEqualTo("User: arn:aws:iam::" + B + ":root is not authorized to perform: sns:Publish on resource: "
                                    + topic + " because no resource-based policy allows the sns:Publish action"));
            root.addPermission(b -> b.topicArn(topic).label("b-publishes").awsAccountIds(B).actionNames("Publish"));
            assertThat(rootB.publish(b -> b.topicArn(topic).message("from B")).messageId()).isNotEmpty();
            assertThatThrownBy(() -> rootB.deleteTopic(b -> b.topicArn(topic))).isInstanceOf(AuthorizationErrorException.class);

            // a statement naming alice lets her publish in her own account without an identity policy
            String grant = "{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Allow\",\"Principal\":{\"AWS\":"
                    + "\"arn:aws:iam::" + A + ":user/alice\"},\"Action\":\"SNS:Publish\",\"Resource\":\"" + topic + "\"}]}";
            root.setTopicAttributes(b -> b.topicArn(topic).attributeName("Policy").attributeValue(grant));
            assertThat(alice.publish(b -> b.topicArn(topic).message("from alice")).messageId()).isNotEmpty();
            assertThatThrownBy(() -> rootB.publish(b -> b.topicArn(topic).message("x"))) // the new policy dropped B's grant
                    .isInstanceOf(AuthorizationErrorException.class);

            String deny = "{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Deny\",\"Principal\":\"*\","
                    + "\"Action\":\"SNS:Publish\",\"Resource\":\"" + topic + "\"}]}";
            root.setTopicAttributes(b -> b.topicArn(topic).attributeName("Policy").attributeValue(deny));
            assertThatThrownBy(() -> root.publish(b -> b.topicArn(topic).message("x")))
                    .isInstanceOfSatisfying(AuthorizationErrorException.class, e -> assertThat(e.awsErrorDetails().errorMessage())
                            .endsWith("with an explicit deny in a resource-based policy"));
        }
    }

    @Test
    void aSameAccountQueueReceivesUnlessItsPolicyDeniesTheTopic() throws Exception {
        try (SnsClient root = sns(ROOT_A, ROOT_A_SECRET)) {
            SqsClient sqs = sqs(ROOT_A, ROOT_A_SECRET);
            String topic = root.createTopic(b -> b.name("fan")).topicArn();
            String open = sqs.createQueue(b -> b.queueName("fan-open")).queueUrl();
            String closed = sqs.createQueue(b -> b.queueName("fan-closed")).queueUrl();
            String deny = "{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Deny\",\"Principal\":{\"Service\":"
                    + "\"sns.amazonaws.com\"},\"Action\":\"sqs:SendMessage\",\"Resource\":\"arn:aws:sqs:us-east-1:" + A
                    + ":fan-closed\",\"Condition\":{\"ArnEquals\":{\"aws:SourceArn\":\"" + topic + "\"}}}]}";
            sqs.setQueueAttributes(b -> b.queueUrl(closed).attributes(java.util.Map.of(QueueAttributeName.POLICY, deny)));
            String dlq = sqs.createQueue(b -> b.queueName("fan-dlq")).queueUrl();
            root.subscribe(b -> b.topicArn(topic).protocol("sqs").endpoint("arn:aws:sqs:us-east-1:" + A + ":fan-open"));
            root.subscribe(b -> b.topicArn(topic).protocol("sqs").endpoint("arn:aws:sqs:us-east-1:" + A + ":fan-closed")
                    .attributes(java.util.Map.of("RedrivePolicy", "{\"deadLetterTargetArn\":\"arn:aws:sqs:us-east-1:" + A + ":fan-dlq\"}")));
            root.publish(b -> b.topicArn(topic).message("to the open queue only"));
            // the publish answered once every allowed queue had its copy: no wait needed (the server's clock is fake)
            assertThat(sqs.receiveMessage(b -> b.queueUrl(open)).messages()).hasSize(1);
            assertThat(sqs.receiveMessage(b -> b.queueUrl(closed)).messages()).isEmpty();
            assertThat(sqs.getQueueAttributes(b -> b.queueUrl(closed).attributeNames(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES))
                    .attributes()).containsEntry(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES, "0");
            var parked = sqs.receiveMessage(b -> b.queueUrl(dlq)).messages(); // the denied delivery went to the DLQ
            assertThat(parked).hasSize(1);
            assertThat(parked.get(0).body()).contains("\"Message\":\"to the open queue only\"");
        }
    }

    @Test
    void anotherAccountsQueueGetsTheConfirmationOnlyWhenItsPolicyLetsTheTopicSend() throws Exception {
        try (SnsClient root = sns(ROOT_A, ROOT_A_SECRET)) {
            SqsClient sqsB = sqs(ROOT_B, ROOT_B_SECRET);
            String topic = root.createTopic(b -> b.name("to-b")).topicArn();
            String closed = sqsB.createQueue(b -> b.queueName("b-closed")).queueUrl();
            String open = sqsB.createQueue(b -> b.queueName("b-open")).queueUrl();
            String allow = "{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Allow\",\"Principal\":{\"Service\":"
                    + "\"sns.amazonaws.com\"},\"Action\":\"sqs:SendMessage\",\"Resource\":\"arn:aws:sqs:us-east-1:" + B
                    + ":b-open\",\"Condition\":{\"ArnEquals\":{\"aws:SourceArn\":\"" + topic + "\"}}}]}";
            sqsB.setQueueAttributes(b -> b.queueUrl(open).attributes(java.util.Map.of(QueueAttributeName.POLICY, allow)));
            assertThat(root.subscribe(b -> b.topicArn(topic).protocol("sqs").endpoint("arn:aws:sqs:us-east-1:" + B + ":b-closed"))
                    .subscriptionArn()).isEqualTo("pending confirmation");
            assertThat(root.subscribe(b -> b.topicArn(topic).protocol("sqs").endpoint("arn:aws:sqs:us-east-1:" + B + ":b-open"))
                    .subscriptionArn()).isEqualTo("pending confirmation");
            java.util.List<software.amazon.awssdk.services.sqs.model.Message> got = new java.util.ArrayList<>();
            for (int i = 0; i < 40 && got.isEmpty(); i++) {
                got.addAll(sqsB.receiveMessage(b -> b.queueUrl(open)).messages());
                Thread.sleep(got.isEmpty() ? 250 : 0);
            }
            assertThat(got).hasSize(1);
            var confirmation = new com.fasterxml.jackson.databind.ObjectMapper().readTree(got.get(0).body());
            assertThat(confirmation.path("Type").asText()).isEqualTo("SubscriptionConfirmation");
            assertThat(sqsB.receiveMessage(b -> b.queueUrl(closed)).messages()).as("no policy lets the topic in").isEmpty();
            // the queue's owner confirms through the SubscribeURL (unsigned, as SNS serves it whatever the auth)
            var confirmed = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(
                    URI.create(confirmation.path("SubscribeURL").asText())).GET().build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString());
            assertThat(confirmed.statusCode()).as(confirmed.body()).isEqualTo(200);
            assertThat(root.listSubscriptionsByTopic(b -> b.topicArn(topic)).subscriptions())
                    .extracting(x -> x.subscriptionArn()).filteredOn(x -> x.startsWith(topic + ":")).hasSize(1);
            sqsB.deleteMessage(b -> b.queueUrl(open).receiptHandle(got.get(0).receiptHandle()));
            root.publish(b -> b.topicArn(topic).message("to B"));
            assertThat(sqsB.receiveMessage(b -> b.queueUrl(open)).messages()).singleElement()
                    .satisfies(m -> assertThat(m.body()).contains("\"Message\":\"to B\""));
        }
    }

    private static String snsPolicy(String effect, String queue, String topic) {
        return "{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"" + effect + "\",\"Principal\":{\"Service\":"
                + "\"sns.amazonaws.com\"},\"Action\":\"sqs:SendMessage\",\"Resource\":\"arn:aws:sqs:us-east-1:" + A
                + ":" + queue + "\",\"Condition\":{\"ArnEquals\":{\"aws:SourceArn\":\"" + topic + "\"}}}]}";
    }

    @Test
    void theDeadLetterQueuesOwnPolicyMustLetTheTopicSend() {
        try (SnsClient root = sns(ROOT_A, ROOT_A_SECRET)) {
            SqsClient sqs = sqs(ROOT_A, ROOT_A_SECRET);
            String topic = root.createTopic(b -> b.name("guarded")).topicArn();
            String closed = sqs.createQueue(b -> b.queueName("guarded-closed")).queueUrl();
            sqs.setQueueAttributes(b -> b.queueUrl(closed).attributes(java.util.Map.of(QueueAttributeName.POLICY,
                    snsPolicy("Deny", "guarded-closed", topic))));
            String dlq = sqs.createQueue(b -> b.queueName("guarded-dlq")).queueUrl();
            sqs.setQueueAttributes(b -> b.queueUrl(dlq).attributes(java.util.Map.of(QueueAttributeName.POLICY,
                    snsPolicy("Deny", "guarded-dlq", topic))));
            root.subscribe(b -> b.topicArn(topic).protocol("sqs").endpoint("arn:aws:sqs:us-east-1:" + A + ":guarded-closed")
                    .attributes(java.util.Map.of("RedrivePolicy", "{\"deadLetterTargetArn\":\"arn:aws:sqs:us-east-1:" + A + ":guarded-dlq\"}")));
            root.publish(b -> b.topicArn(topic).message("nowhere to go"));
            assertThat(sqs.receiveMessage(b -> b.queueUrl(dlq)).messages()).as("the DLQ's policy denies the topic").isEmpty();

            sqs.setQueueAttributes(b -> b.queueUrl(dlq).attributes(java.util.Map.of(QueueAttributeName.POLICY,
                    snsPolicy("Allow", "guarded-dlq", topic))));
            root.publish(b -> b.topicArn(topic).message("parked"));
            var parked = sqs.receiveMessage(b -> b.queueUrl(dlq).maxNumberOfMessages(10)).messages();
            assertThat(parked).hasSize(1);
            assertThat(parked.get(0).body()).contains("\"Message\":\"parked\"");
        }
    }

    @Test
    void theSubscribeUrlWorksUnsignedButAnUnsignedUnsubscribeOfAnAuthenticatedSubscriptionIsRefused() throws Exception {
        java.net.http.HttpClient web = java.net.http.HttpClient.newHttpClient();
        java.util.concurrent.LinkedBlockingQueue<String> bodies = new java.util.concurrent.LinkedBlockingQueue<>();
        com.sun.net.httpserver.HttpServer hook = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress("127.0.0.1", 0), 0);
        hook.createContext("/", e -> {
            bodies.add(new String(e.getRequestBody().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8));
            e.sendResponseHeaders(200, -1);
            e.close();
        });
        hook.start();
        try (SnsClient root = sns(ROOT_A, ROOT_A_SECRET)) {
            String topic = root.createTopic(b -> b.name("links")).topicArn();
            String url = "http://127.0.0.1:" + hook.getAddress().getPort() + "/h";
            root.subscribe(b -> b.topicArn(topic).protocol("http").endpoint(url));
            String confirmation = bodies.poll(20, java.util.concurrent.TimeUnit.SECONDS);
            String subscribeUrl = new com.fasterxml.jackson.databind.ObjectMapper().readTree(confirmation).path("SubscribeURL").asText();
            var bad = web.send(java.net.http.HttpRequest.newBuilder(URI.create(subscribeUrl.replaceAll("Token=[0-9a-f]+", "Token=00"))).build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString());
            assertThat(bad.statusCode()).isEqualTo(400);
            assertThat(bad.body()).contains("<Code>InvalidParameter</Code>");
            var ok = web.send(java.net.http.HttpRequest.newBuilder(URI.create(subscribeUrl)).build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString());
            assertThat(ok.statusCode()).as(ok.body()).isEqualTo(200); // unsigned, under --auth sigv4, as at SNS

            String queueSubscription = root.subscribe(b -> b.topicArn(topic).protocol("sqs")
                    .endpoint("arn:aws:sqs:us-east-1:" + A + ":orders").returnSubscriptionArn(true)).subscriptionArn();
            var refused = web.send(java.net.http.HttpRequest.newBuilder(URI.create(endpoint
                    + "/?Action=Unsubscribe&SubscriptionArn=" + queueSubscription)).build(), java.net.http.HttpResponse.BodyHandlers.ofString());
            assertThat(refused.statusCode()).isEqualTo(403);
            assertThat(refused.body()).contains("<Code>AuthorizationError</Code>");
            assertThat(root.listSubscriptionsByTopic(b -> b.topicArn(topic)).subscriptions()).extracting(x -> x.subscriptionArn())
                    .contains(queueSubscription);
        } finally {
            hook.stop(0);
        }
    }
}
