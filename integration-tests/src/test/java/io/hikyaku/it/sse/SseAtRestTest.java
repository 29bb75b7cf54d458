package io.hikyaku.it.sse;

import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.server.DurabilityMode;
import io.hikyaku.server.HikyakuServer;
import io.hikyaku.server.ServerConfig;
import io.hikyaku.server.StorageMode;
import io.hikyaku.store.rocksdb.RocksDbStore;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.kms.KmsClient;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * Encryption at rest, seen from the disk: a marker sent (as body and as a string attribute) to an SSE-SQS queue
 * (the default) and to an SSE-KMS queue is in no file of the data directory (RocksDB tables, WAL, manifests, the
 * key service's log) nor in the journal, after a clean stop and a flush and compaction of the store; a restart
 * still returns it with the MD5s of the plaintext. The same marker sent to a queue with SSE off is found: the scan
 * sees what is there.
 */
class SseAtRestTest {

    @TempDir
    Path dataDir;
    @TempDir
    Path journalDir;

    private HikyakuServer start() {
        return HikyakuServer.start(ServerConfig.defaults().withPort(0).withStorage(StorageMode.ROCKSDB).withDataDir(dataDir)
                .withDurability(DurabilityMode.BATCH).withJournal(journalDir.resolve("commands.journal")));
    }

    @Test
    void aMarkerSentToEncryptedQueuesIsInNoFileAndStillReceived() throws Exception {
        String marker = "MARKER-" + UUID.randomUUID();
        String plainMarker = "PLAIN-" + UUID.randomUUID();
        String body = "order " + marker + " body";
        Map<String, MessageAttributeValue> attrs = Map.of(
                "note", MessageAttributeValue.builder().dataType("String").stringValue("attr " + marker).build(),
                "blob", MessageAttributeValue.builder().dataType("Binary")
                        .binaryValue(software.amazon.awssdk.core.SdkBytes.fromUtf8String("bin " + marker)).build());
        String[] md5s = new String[2];
        try (HikyakuServer server = start(); SqsClient sqs = SseClients.sqs(server.endpoint(), "test", "test");
             KmsClient kms = SseClients.kms(server.endpoint(), "test", "test")) {
            String sseSqs = sqs.createQueue(b -> b.queueName("sse-sqs")).queueUrl();
            assertThat(sqs.getQueueAttributes(b -> b.queueUrl(sseSqs).attributeNames(QueueAttributeName.ALL)).attributesAsStrings())
                    .containsEntry("SqsManagedSseEnabled", "true");
            String keyId = kms.createKey(b -> b.description("orders")).keyMetadata().keyId();
            String sseKms = sqs.createQueue(b -> b.queueName("sse-kms").attributesWithStrings(Map.of("KmsMasterKeyId", keyId)))
                    .queueUrl();
            String fifo = sqs.createQueue(b -> b.queueName("sse-kms.fifo").attributesWithStrings(Map.of("KmsMasterKeyId", "alias/aws/sqs",
                    "FifoQueue", "true", "ContentBasedDeduplication", "true"))).queueUrl();
            String plain = sqs.createQueue(b -> b.queueName("sse-off").attributesWithStrings(Map.of("SqsManagedSseEnabled", "false")))
                    .queueUrl();
            for (String q : List.of(sseSqs, sseKms)) {
                var sent = sqs.sendMessage(b -> b.queueUrl(q).messageBody(body).messageAttributes(attrs));
                md5s[0] = sent.md5OfMessageBody();
                md5s[1] = sent.md5OfMessageAttributes();
                sqs.sendMessageBatch(b -> b.queueUrl(q).entries(e -> e.id("a").messageBody(body).messageAttributes(attrs),
                        e -> e.id("b").messageBody(body + " 2")));
            }
            assertThat(md5s[0]).isEqualTo(SseClients.md5(body));
            // content-based deduplication still sees the plaintext: the same body twice is one message
            String first = sqs.sendMessage(b -> b.queueUrl(fifo).messageBody(body).messageGroupId("g")).messageId();
            assertThat(sqs.sendMessage(b -> b.queueUrl(fifo).messageBody(body).messageGroupId("g")).messageId()).isEqualTo(first);
            sqs.sendMessage(b -> b.queueUrl(plain).messageBody("order " + plainMarker).messageAttributes(Map.of("note",
                    MessageAttributeValue.builder().dataType("String").stringValue("attr " + plainMarker).build())));
        }
        try (RocksDbStore store = RocksDbStore.open(dataDir)) {
            store.flushAndCompact();
        }
        List<Path> scanned = new ArrayList<>();
        List<Path> withMarker = filesHolding(marker, scanned);
        assertThat(scanned).as("files scanned").hasSizeGreaterThan(3)
                .anyMatch(p -> p.toString().endsWith(".sst")).anyMatch(p -> p.getFileName().toString().equals("commands.journal"));
        assertThat(withMarker).as("files holding the marker of an encrypted queue").isEmpty();
        assertThat(filesHolding(plainMarker, new ArrayList<>())).as("the marker of the queue without SSE is found")
                .isNotEmpty();

        try (HikyakuServer server = start(); SqsClient sqs = SseClients.sqs(server.endpoint(), "test", "test")) {
            for (String name : List.of("sse-sqs", "sse-kms")) {
                String q = sqs.getQueueUrl(b -> b.queueName(name)).queueUrl();
                List<Message> got = new ArrayList<>();
                for (int i = 0; i < 5 && got.size() < 3; i++) {
                    got.addAll(sqs.receiveMessage(b -> b.queueUrl(q).maxNumberOfMessages(10).messageAttributeNames("All")
                            .waitTimeSeconds(1)).messages());
                }
                assertThat(got).extracting(Message::body).containsExactlyInAnyOrder(body, body, body + " 2");
                for (Message m : got) {
                    assertThat(m.md5OfBody()).isEqualTo(SseClients.md5(m.body()));
                    if (m.body().equals(body)) {
                        assertThat(m.messageAttributes().get("note").stringValue()).isEqualTo("attr " + marker);
                        assertThat(m.messageAttributes().get("blob").binaryValue().asUtf8String()).isEqualTo("bin " + marker);
                        assertThat(m.md5OfMessageAttributes()).isEqualTo(md5s[1]);
                    } else {
                        assertThat(m.messageAttributes()).isEmpty();
                    }
                }
            }
            // the console's peek opens them too
            String fifo = sqs.getQueueUrl(b -> b.queueName("sse-kms.fifo")).queueUrl();
            HttpResponse<String> peek = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(server.endpoint()))
                    .header("Content-Type", "application/x-amz-json-1.0").header("X-Amz-Target", "Hikyaku.PeekMessages")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"QueueUrl\":\"" + fifo + "\"}")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(peek.statusCode()).as(peek.body()).isEqualTo(200);
            assertThat(peek.body()).contains(marker).doesNotContain("\\u0001");
        }
    }

    /** Every regular file under the data directory and the journal's directory that holds {@code marker}. */
    private List<Path> filesHolding(String marker, List<Path> scanned) throws Exception {
        return MarkerScan.filesHolding(marker, List.of(dataDir, journalDir), scanned);
    }
}
