package io.hikyaku.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;

class HikyakuEmbeddedTest {

    private static SqsClient client(URI endpoint) {
        return SqsClient.builder().endpointOverride(endpoint).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
                .httpClient(UrlConnectionHttpClient.create()).build();
    }

    @Test
    void twoServersInOneJvmAreIndependent() {
        try (Hikyaku a = Hikyaku.builder().port(0).inMemory().start();
             Hikyaku b = Hikyaku.builder().port(0).inMemory().start();
             SqsClient ca = client(a.endpoint()); SqsClient cb = client(b.endpoint())) {
            assertThat(a.port()).isNotEqualTo(b.port());
            String url = ca.createQueue(r -> r.queueName("orders")).queueUrl();
            ca.sendMessage(r -> r.queueUrl(url).messageBody("hello"));
            assertThat(ca.receiveMessage(r -> r.queueUrl(url)).messages()).extracting(Message::body).containsExactly("hello");
            assertThat(cb.listQueues().queueUrls()).isEmpty();
        }
    }

    @Test
    void declaredQueuesExistWhenStartReturns() {
        try (Hikyaku h = Hikyaku.builder().queue("jobs.fifo", Map.of("FifoQueue", "true")).start();
             SqsClient c = client(h.endpoint())) {
            assertThat(c.getQueueUrl(r -> r.queueName("jobs.fifo")).queueUrl()).endsWith("/000000000000/jobs.fifo");
            assertThat(h.endpoint().getHost()).isEqualTo("127.0.0.1");
        }
    }

    @Test
    void dataDirKeepsMessagesAcrossRestarts(@TempDir Path dir) {
        try (Hikyaku h = Hikyaku.builder().dataDir(dir).start(); SqsClient c = client(h.endpoint())) {
            String url = c.createQueue(r -> r.queueName("kept")).queueUrl();
            c.sendMessage(r -> r.queueUrl(url).messageBody("durable"));
        }
        try (Hikyaku h = Hikyaku.builder().dataDir(dir).start(); SqsClient c = client(h.endpoint())) {
            String url = c.getQueueUrl(r -> r.queueName("kept")).queueUrl();
            assertThat(c.receiveMessage(r -> r.queueUrl(url)).messages()).extracting(Message::body).containsExactly("durable");
        }
    }

    @Test
    void configFileSettingsApplyAndBuilderSettingsWin(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("hikyaku.yaml");
        Files.writeString(file, "server:\n  region: eu-west-1\nqueues:\n  - name: from-file\n");
        Hikyaku.Builder builder = Hikyaku.builder().config(file).accountId("123456789012");
        assertThat(builder.resolve().region()).isEqualTo("eu-west-1");
        try (Hikyaku h = builder.start(); SqsClient c = client(h.endpoint())) {
            assertThat(c.getQueueUrl(r -> r.queueName("from-file")).queueUrl()).endsWith("/123456789012/from-file");
        }
    }
}
