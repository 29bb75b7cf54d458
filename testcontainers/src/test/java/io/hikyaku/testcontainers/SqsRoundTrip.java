package io.hikyaku.testcontainers;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.util.List;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;

/** The SDK flow both container tests run: create, send, receive, delete, and nothing comes back. */
final class SqsRoundTrip {

    private SqsRoundTrip() {}

    static SqsClient client(URI endpoint, String region, String accessKey, String secretKey) {
        return SqsClient.builder().endpointOverride(endpoint).region(Region.of(region))
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(accessKey, secretKey)))
                .httpClient(UrlConnectionHttpClient.create()).build();
    }

    /** Runs the flow; returns the queue URL the server gave. */
    static String run(SqsClient sqs, String queueName) {
        String url = sqs.createQueue(b -> b.queueName(queueName)).queueUrl();
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("hello from a container"));
        List<Message> got = sqs.receiveMessage(b -> b.queueUrl(url).waitTimeSeconds(2).maxNumberOfMessages(10)).messages();
        assertThat(got).extracting(Message::body).containsExactly("hello from a container");
        sqs.deleteMessage(b -> b.queueUrl(url).receiptHandle(got.get(0).receiptHandle()));
        assertThat(sqs.receiveMessage(b -> b.queueUrl(url).waitTimeSeconds(1)).messages()).as("deleted").isEmpty();
        return url;
    }
}
