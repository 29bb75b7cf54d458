package io.hikyaku.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.sqs.AmazonSQS;
import io.hikyaku.it.support.SqsTestBase;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/** A 12-digit access key id selects that account: queues, URLs, ARNs and listings are per account. */
class MultiAccountTest extends SqsTestBase {
    static final String OTHER = "111111111111";
    private SqsClient other;
    private AmazonSQS otherV1;

    @BeforeAll
    void otherAccountClients() {
        other = v2Client(OTHER);
        otherV1 = v1Client(OTHER);
    }

    @Test
    void queueUrlAndArnCarryTheCallersAccount() {
        String name = unique("ma");
        String url = other.createQueue(b -> b.queueName(name)).queueUrl();
        assertThat(url).isEqualTo(endpoint + "/" + OTHER + "/" + name);
        assertThat(other.getQueueAttributes(b -> b.queueUrl(url).attributeNames(QueueAttributeName.QUEUE_ARN))
                .attributesAsStrings()).containsEntry("QueueArn", arn(OTHER, name));
        assertThat(other.getQueueUrl(b -> b.queueName(name)).queueUrl()).isEqualTo(url);
    }

    @Test
    void nonNumericAccessKeyUsesTheDefaultAccount() {
        String name = unique("ma-default");
        assertThat(createQueue(name)).isEqualTo(endpoint + "/" + ACCOUNT + "/" + name);
    }

    @Test
    void sameNameInTwoAccountsAreTwoQueues() {
        String name = unique("ma-same");
        String mine = createQueue(name);
        String theirs = other.createQueue(b -> b.queueName(name)).queueUrl();
        assertThat(theirs).isNotEqualTo(mine);
        sqs.sendMessage(b -> b.queueUrl(mine).messageBody("mine"));
        other.sendMessage(b -> b.queueUrl(theirs).messageBody("theirs"));
        assertThat(sqs.receiveMessage(b -> b.queueUrl(mine)).messages()).extracting(Message::body).containsExactly("mine");
        assertThat(other.receiveMessage(b -> b.queueUrl(theirs)).messages()).extracting(Message::body).containsExactly("theirs");
        // deleting one leaves the other
        sqs.deleteQueue(b -> b.queueUrl(mine));
        assertThat(other.getQueueUrl(b -> b.queueName(name)).queueUrl()).isEqualTo(theirs);
    }

    @Test
    void listingsArePerAccount() {
        String prefix = unique("ma-list");
        String mine = createQueue(prefix + "-mine");
        String theirs = other.createQueue(b -> b.queueName(prefix + "-theirs")).queueUrl();
        assertThat(sqs.listQueues(b -> b.queueNamePrefix(prefix)).queueUrls()).containsExactly(mine);
        assertThat(other.listQueues(b -> b.queueNamePrefix(prefix)).queueUrls()).containsExactly(theirs);
        assertThat(otherV1.listQueues(prefix).getQueueUrls()).containsExactly(theirs);
    }

    @Test
    void otherAccountsQueueNameIsUnknownInMyAccount() {
        String name = unique("ma-hidden");
        other.createQueue(b -> b.queueName(name));
        io.hikyaku.it.support.SqsErrors.assertV2Error(() -> sqs.getQueueUrl(b -> b.queueName(name)),
                "AWS.SimpleQueueService.NonExistentQueue", "The specified queue does not exist.");
    }

    @Test
    void grantedAccountReachesTheQueueByOwnerIdAndUrl_v2() {
        String name = unique("ma-shared");
        String url = other.createQueue(b -> b.queueName(name)).queueUrl();
        other.addPermission(b -> b.queueUrl(url).label("share").awsAccountIds(ACCOUNT).actions("*"));
        assertThat(sqs.getQueueUrl(b -> b.queueName(name).queueOwnerAWSAccountId(OTHER)).queueUrl()).isEqualTo(url);
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("cross-account"));
        assertThat(other.receiveMessage(b -> b.queueUrl(url)).messages()).extracting(Message::body).containsExactly("cross-account");
    }

    @Test
    void grantedAccountReachesTheQueueByOwnerIdAndUrl_v1() {
        String name = unique("ma-shared1");
        String url = otherV1.createQueue(name).getQueueUrl();
        otherV1.addPermission(url, "share", List.of(ACCOUNT), List.of("SendMessage", "GetQueueUrl"));
        assertThat(sqsV1.getQueueUrl(new com.amazonaws.services.sqs.model.GetQueueUrlRequest(name)
                .withQueueOwnerAWSAccountId(OTHER)).getQueueUrl()).isEqualTo(url);
        sqsV1.sendMessage(url, "v1 cross-account");
        assertThat(otherV1.receiveMessage(url).getMessages()).extracting(com.amazonaws.services.sqs.model.Message::getBody)
                .containsExactly("v1 cross-account");
    }

    @Test
    void deadLetterQueuesResolveWithinTheAccount() {
        String dlqName = unique("ma-dlq");
        other.createQueue(b -> b.queueName(dlqName));
        String src = other.createQueue(b -> b.queueName(unique("ma-src")).attributes(Map.of(QueueAttributeName.REDRIVE_POLICY,
                redrivePolicy(arn(OTHER, dlqName), 1)))).queueUrl();
        assertThat(other.listDeadLetterSourceQueues(b -> b.queueUrl(endpoint + "/" + OTHER + "/" + dlqName)).queueUrls())
                .containsExactly(src);
    }
}
