package io.hikyaku.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.server.DurabilityMode;
import io.hikyaku.server.HikyakuServer;
import io.hikyaku.server.ServerConfig;
import io.hikyaku.server.StorageMode;
import io.hikyaku.testsupport.MutableClock;
import java.math.BigInteger;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/** The durable store seen through the SDK: what a client stored is there after a restart on the same data directory. */
class PersistenceTest {
    @TempDir
    Path dataDir;

    private final MutableClock clock = new MutableClock(Instant.now().truncatedTo(ChronoUnit.SECONDS));

    private void withServer(Consumer<SqsClient> body) {
        ServerConfig cfg = ServerConfig.defaults().withPort(0).withStorage(StorageMode.ROCKSDB).withDataDir(dataDir)
                .withDurability(DurabilityMode.BATCH).withClock(clock);
        try (HikyakuServer server = HikyakuServer.start(cfg);
             SqsClient sqs = SqsClient.builder().endpointOverride(URI.create(server.endpoint())).region(Region.US_EAST_1)
                     .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
                     .httpClient(UrlConnectionHttpClient.create())
                     .overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.doNotRetry()))
                     .build()) {
            body.accept(sqs);
        }
    }

    @Test
    void queuesMessagesAndStateSurviveARestart() {
        String[] fifoSeq = new String[1];
        withServer(sqs -> {
            String std = sqs.createQueue(b -> b.queueName("durable").attributes(Map.of(QueueAttributeName.VISIBILITY_TIMEOUT, "60"))
                    .tags(Map.of("team", "core"))).queueUrl();
            sqs.sendMessage(b -> b.queueUrl(std).messageBody("visible"));
            sqs.sendMessage(b -> b.queueUrl(std).messageBody("in flight"));
            sqs.sendMessage(b -> b.queueUrl(std).messageBody("delayed").delaySeconds(120));
            assertThat(sqs.receiveMessage(b -> b.queueUrl(std).maxNumberOfMessages(1)).messages()).hasSize(1);
            String fifo = sqs.createQueue(b -> b.queueName("durable.fifo").attributes(Map.of(QueueAttributeName.FIFO_QUEUE, "true")))
                    .queueUrl();
            fifoSeq[0] = sqs.sendMessage(b -> b.queueUrl(fifo).messageBody("f1").messageGroupId("g").messageDeduplicationId("d1"))
                    .sequenceNumber();
            String gone = sqs.createQueue(b -> b.queueName("deleted-before-restart")).queueUrl();
            sqs.deleteQueue(b -> b.queueUrl(gone));
        });
        withServer(sqs -> {
            String std = sqs.getQueueUrl(b -> b.queueName("durable")).queueUrl();
            assertThat(sqs.getQueueAttributes(b -> b.queueUrl(std).attributeNames(QueueAttributeName.ALL)).attributesAsStrings())
                    .containsEntry("VisibilityTimeout", "60")
                    .containsEntry("ApproximateNumberOfMessages", "1")
                    .containsEntry("ApproximateNumberOfMessagesNotVisible", "1")
                    .containsEntry("ApproximateNumberOfMessagesDelayed", "1");
            assertThat(sqs.listQueueTags(b -> b.queueUrl(std)).tags()).isEqualTo(Map.of("team", "core"));
            List<Message> now = sqs.receiveMessage(b -> b.queueUrl(std).maxNumberOfMessages(10)).messages();
            assertThat(now).extracting(Message::body).hasSize(1).doesNotContain("delayed");
            // after the delay (and both 60 s visibility timeouts) all three are visible
            clock.advance(Duration.ofSeconds(121));
            List<Message> later = sqs.receiveMessage(b -> b.queueUrl(std).maxNumberOfMessages(10)).messages();
            assertThat(later).extracting(Message::body).containsExactlyInAnyOrder("visible", "in flight", "delayed");

            String fifo = sqs.getQueueUrl(b -> b.queueName("durable.fifo")).queueUrl();
            // the deduplication window and the sequence survive too
            sqs.sendMessage(b -> b.queueUrl(fifo).messageBody("dup").messageGroupId("g").messageDeduplicationId("d1"));
            String seq2 = sqs.sendMessage(b -> b.queueUrl(fifo).messageBody("f2").messageGroupId("g").messageDeduplicationId("d2"))
                    .sequenceNumber();
            assertThat(new BigInteger(seq2)).isGreaterThan(new BigInteger(fifoSeq[0]));
            List<String> bodies = sqs.receiveMessage(b -> b.queueUrl(fifo).maxNumberOfMessages(10)).messages().stream()
                    .map(Message::body).toList();
            assertThat(bodies).containsExactly("f1", "f2");
            assertThat(sqs.listQueues(b -> b.queueNamePrefix("deleted-before")).queueUrls()).isEmpty();
        });
    }
}
