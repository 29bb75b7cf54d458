package io.hikyaku.it.sse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hikyaku.server.DurabilityMode;
import io.hikyaku.server.HikyakuServer;
import io.hikyaku.server.ServerConfig;
import io.hikyaku.server.StorageMode;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.kms.KmsClient;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.BatchResultErrorEntry;
import software.amazon.awssdk.services.sqs.model.KmsDisabledException;
import software.amazon.awssdk.services.sqs.model.KmsInvalidStateException;
import software.amazon.awssdk.services.sqs.model.KmsNotFoundException;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;
import software.amazon.awssdk.services.sqs.model.SqsException;

/**
 * SQS's KMS errors with the AWS SDK for Java v2 (sqs and kms clients, JSON protocol; the Query code travels in
 * x-amzn-query-error): a disabled key, a key pending deletion, a key that does not exist give
 * KMS.DisabledException, KMS.InvalidStateException, KMS.NotFoundException (400) on SendMessage, per entry in
 * SendMessageBatch and on ReceiveMessage; a refused receive takes nothing; the key enabled again, everything works
 * and every message opens.
 */
class SseKmsErrorsTest {

    @TempDir
    Path dataDir;

    @Test
    void disabledPendingDeletionAndMissingKeysRefuseSendsAndReceivesAndRecover() throws Exception {
        try (HikyakuServer server = HikyakuServer.start(ServerConfig.defaults().withPort(0).withStorage(StorageMode.ROCKSDB)
                .withDataDir(dataDir).withDurability(DurabilityMode.BATCH));
             SqsClient sqs = SseClients.sqs(server.endpoint(), "test", "test");
             KmsClient kms = SseClients.kms(server.endpoint(), "test", "test")) {
            var key = kms.createKey(b -> b.description("orders")).keyMetadata();
            kms.createAlias(b -> b.aliasName("alias/orders").targetKeyId(key.keyId()));
            String q = sqs.createQueue(b -> b.queueName("orders").attributesWithStrings(Map.of("KmsMasterKeyId", "alias/orders")))
                    .queueUrl();
            assertThat(sqs.getQueueAttributes(b -> b.queueUrl(q).attributeNames(QueueAttributeName.ALL)).attributesAsStrings())
                    .containsEntry("KmsMasterKeyId", "alias/orders").containsEntry("KmsDataKeyReusePeriodSeconds", "300")
                    .containsEntry("SqsManagedSseEnabled", "false");
            sqs.sendMessage(b -> b.queueUrl(q).messageBody("before"));

            kms.disableKey(b -> b.keyId(key.keyId()));
            String disabled = key.arn() + " is disabled.";
            assertThatThrownBy(() -> sqs.sendMessage(b -> b.queueUrl(q).messageBody("refused")))
                    .isInstanceOfSatisfying(KmsDisabledException.class, e -> {
                        assertThat(e.statusCode()).isEqualTo(400);
                        assertThat(e.awsErrorDetails().errorCode()).isEqualTo("KMS.DisabledException");
                        assertThat(e.awsErrorDetails().errorMessage()).isEqualTo(disabled);
                    });
            var batch = sqs.sendMessageBatch(b -> b.queueUrl(q).entries(e -> e.id("a").messageBody("x"),
                    e -> e.id("b").messageBody("y"), e -> e.id("c").messageBody("")));
            assertThat(batch.successful()).isEmpty();
            assertThat(batch.failed()).extracting(BatchResultErrorEntry::id, BatchResultErrorEntry::code, BatchResultErrorEntry::senderFault)
                    .containsExactlyInAnyOrder(
                            org.assertj.core.groups.Tuple.tuple("a", "KMS.DisabledException", true),
                            org.assertj.core.groups.Tuple.tuple("b", "KMS.DisabledException", true),
                            org.assertj.core.groups.Tuple.tuple("c", "MissingParameter", true));
            assertThatThrownBy(() -> sqs.receiveMessage(b -> b.queueUrl(q)))
                    .isInstanceOfSatisfying(KmsDisabledException.class, e ->
                            assertThat(e.awsErrorDetails().errorCode()).isEqualTo("KMS.DisabledException"));
            assertThat(counts(sqs, q)).as("the refused receive took nothing").containsExactly("1", "0");

            kms.enableKey(b -> b.keyId(key.keyId()));
            sqs.sendMessage(b -> b.queueUrl(q).messageBody("after"));

            kms.scheduleKeyDeletion(b -> b.keyId(key.keyId()).pendingWindowInDays(7));
            assertThatThrownBy(() -> sqs.sendMessage(b -> b.queueUrl(q).messageBody("refused")))
                    .isInstanceOfSatisfying(KmsInvalidStateException.class, e -> {
                        assertThat(e.awsErrorDetails().errorCode()).isEqualTo("KMS.InvalidStateException");
                        assertThat(e.awsErrorDetails().errorMessage()).isEqualTo(key.arn() + " is pending deletion.");
                    });
            assertThatThrownBy(() -> sqs.receiveMessage(b -> b.queueUrl(q)))
                    .isInstanceOf(KmsInvalidStateException.class);
            kms.cancelKeyDeletion(b -> b.keyId(key.keyId())); // leaves it Disabled, as AWS does
            assertThatThrownBy(() -> sqs.receiveMessage(b -> b.queueUrl(q))).isInstanceOf(KmsDisabledException.class);
            kms.enableKey(b -> b.keyId(key.keyId()));
            List<Message> got = receiveAll(sqs, q, 2);
            assertThat(got).extracting(Message::body).containsExactlyInAnyOrder("before", "after");

            // a key that does not exist (SQS does not check KmsMasterKeyId when it is set; the send does)
            String missing = sqs.createQueue(b -> b.queueName("missing-key").attributesWithStrings(Map.of("KmsMasterKeyId",
                    "11111111-2222-3333-4444-555555555555"))).queueUrl();
            assertThatThrownBy(() -> sqs.sendMessage(b -> b.queueUrl(missing).messageBody("x")))
                    .isInstanceOfSatisfying(KmsNotFoundException.class, e -> {
                        assertThat(e.awsErrorDetails().errorCode()).isEqualTo("KMS.NotFoundException");
                        assertThat(e.awsErrorDetails().errorMessage())
                                .isEqualTo("Key 'arn:aws:kms:us-east-1:000000000000:key/11111111-2222-3333-4444-555555555555' does not exist");
                    });
            assertThat(sqs.receiveMessage(b -> b.queueUrl(missing)).messages()).as("an empty queue needs no key").isEmpty();

            // a message keeps its key: the queue moved to SSE-SQS, then to no SSE, the old message still opens
            sqs.sendMessage(b -> b.queueUrl(q).messageBody("under the old key"));
            sqs.setQueueAttributes(b -> b.queueUrl(q).attributesWithStrings(Map.of("SqsManagedSseEnabled", "true")));
            sqs.sendMessage(b -> b.queueUrl(q).messageBody("under sse-sqs"));
            sqs.setQueueAttributes(b -> b.queueUrl(q).attributesWithStrings(Map.of("SqsManagedSseEnabled", "false")));
            sqs.sendMessage(b -> b.queueUrl(q).messageBody("plain"));
            assertThat(receiveAll(sqs, q, 3)).extracting(Message::body)
                    .containsExactlyInAnyOrder("under the old key", "under sse-sqs", "plain");
        }
    }

    private static List<String> counts(SqsClient sqs, String q) {
        Map<String, String> a = sqs.getQueueAttributes(b -> b.queueUrl(q).attributeNames(
                QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES, QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE))
                .attributesAsStrings();
        return List.of(a.get("ApproximateNumberOfMessages"), a.get("ApproximateNumberOfMessagesNotVisible"));
    }

    static List<Message> receiveAll(SqsClient sqs, String q, int n) {
        List<Message> got = new java.util.ArrayList<>();
        for (int i = 0; i < 10 && got.size() < n; i++) {
            got.addAll(sqs.receiveMessage(b -> b.queueUrl(q).maxNumberOfMessages(10).waitTimeSeconds(1)).messages());
        }
        for (Message m : got) {
            sqs.deleteMessage(b -> b.queueUrl(q).receiptHandle(m.receiptHandle()));
        }
        return got;
    }
}
