package io.hikyaku.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.it.support.SqsTestBase;
import io.hikyaku.server.ServerConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * A server with two engine shards, driven by the Java SDKs from two accounts that fall on different
 * shards (000000000000 and 333333333333): each sees its own queues, both work at the same time, a
 * dead-letter queue works within its account, and a granted account reaches the other's queue.
 */
class EngineShardsTest extends SqsTestBase {

    static final String OTHER = "333333333333";
    private SqsClient other;
    private ExecutorService pool;

    @Override
    protected ServerConfig configure(ServerConfig defaults) {
        return defaults.withEngineShards(2);
    }

    @BeforeAll
    void clients() {
        other = v2Client(OTHER);
        pool = Executors.newFixedThreadPool(4);
    }

    @AfterAll
    void stopPool() {
        pool.shutdownNow();
    }

    @Test
    void twoAccountsOnTwoShardsSendAndReceiveAtTheSameTime() throws Exception {
        String name = unique("shards");
        String mine = createQueue(name);
        String theirs = other.createQueue(b -> b.queueName(name)).queueUrl();
        List<CompletableFuture<Integer>> runs = new ArrayList<>();
        for (SqsClient client : List.of(sqs, other)) {
            String url = client == sqs ? mine : theirs;
            runs.add(CompletableFuture.supplyAsync(() -> {
                for (int i = 0; i < 50; i++) {
                    int n = i;
                    client.sendMessage(b -> b.queueUrl(url).messageBody("m" + n));
                }
                int got = 0;
                while (got < 50) {
                    List<Message> ms = client.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(10)).messages();
                    for (Message m : ms) {
                        client.deleteMessage(b -> b.queueUrl(url).receiptHandle(m.receiptHandle()));
                    }
                    got += ms.size();
                }
                return got;
            }, pool));
        }
        for (CompletableFuture<Integer> run : runs) {
            assertThat(run.get(60, TimeUnit.SECONDS)).isEqualTo(50);
        }
        assertThat(sqs.listQueues(b -> b.queueNamePrefix(name)).queueUrls()).containsExactly(mine);
        assertThat(other.listQueues(b -> b.queueNamePrefix(name)).queueUrls()).containsExactly(theirs);
    }

    @Test
    void deadLetterRedriveAndMoveTasksStayWithinTheirShard() {
        String dlq = other.createQueue(b -> b.queueName(unique("shards-dlq"))).queueUrl();
        String dlqArn = other.getQueueAttributes(b -> b.queueUrl(dlq).attributeNamesWithStrings("QueueArn"))
                .attributesAsStrings().get("QueueArn");
        String src = other.createQueue(b -> b.queueName(unique("shards-src"))
                .attributesWithStrings(java.util.Map.of("RedrivePolicy", redrivePolicy(dlqArn, 1)))).queueUrl();
        other.sendMessage(b -> b.queueUrl(src).messageBody("poison"));
        other.receiveMessage(b -> b.queueUrl(src).visibilityTimeout(0));
        other.receiveMessage(b -> b.queueUrl(src).visibilityTimeout(0));
        assertThat(other.receiveMessage(b -> b.queueUrl(dlq)).messages()).extracting(Message::body)
                .containsExactly("poison");
        assertThat(other.listDeadLetterSourceQueues(b -> b.queueUrl(dlq)).queueUrls()).containsExactly(src);
        String handle = other.startMessageMoveTask(b -> b.sourceArn(dlqArn)).taskHandle();
        assertThat(handle).isNotEmpty();
        assertThat(other.listMessageMoveTasks(b -> b.sourceArn(dlqArn)).results()).hasSize(1);
    }

    @Test
    void aGrantedAccountReachesAQueueOnTheOtherShard() {
        String name = unique("shards-shared");
        String url = other.createQueue(b -> b.queueName(name)).queueUrl();
        other.addPermission(b -> b.queueUrl(url).label("share").awsAccountIds(ACCOUNT).actions("*"));
        assertThat(sqs.getQueueUrl(b -> b.queueName(name).queueOwnerAWSAccountId(OTHER)).queueUrl()).isEqualTo(url);
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("from the other account"));
        assertThat(other.receiveMessage(b -> b.queueUrl(url)).messages()).extracting(Message::body)
                .containsExactly("from the other account");
    }
}
