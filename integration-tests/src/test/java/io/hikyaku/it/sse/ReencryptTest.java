package io.hikyaku.it.sse;

import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.server.DurabilityMode;
import io.hikyaku.server.HikyakuServer;
import io.hikyaku.server.ServerConfig;
import io.hikyaku.server.StorageMode;
import io.hikyaku.engine.store.Keyspace;
import io.hikyaku.server.cli.HikyakuCommand;
import io.hikyaku.store.rocksdb.RocksDbStore;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.kms.KmsClient;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;
import software.amazon.awssdk.services.sqs.model.SendMessageResponse;

/**
 * {@code hikyaku reencrypt}, end to end: messages sent in plain text to queues that get SSE afterwards
 * (SetQueueAttributes SqsManagedSseEnabled, KmsMasterKeyId) are sealed by the command with the server stopped, so
 * their marker is then in no file of the data directory; a restarted server returns every one with its body,
 * attributes, MD5s, id and receive count; a second run seals none; the command refuses while the server runs; a
 * disabled key skips its queue with exit 1 until it is enabled again.
 */
class ReencryptTest {

    @TempDir
    Path dataDir;

    private HikyakuServer start() {
        return HikyakuServer.start(ServerConfig.defaults().withPort(0).withStorage(StorageMode.ROCKSDB).withDataDir(dataDir)
                .withDurability(DurabilityMode.BATCH));
    }

    private record Run(int exit, String out, String err) { }

    private Run reencrypt(String... extra) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        List<String> args = new ArrayList<>(List.of("reencrypt", "--data-dir", dataDir.toString()));
        args.addAll(List.of(extra));
        int exit = HikyakuCommand.commandLine(Map.of(), new PrintWriter(out), new PrintWriter(err)).execute(args.toArray(String[]::new));
        return new Run(exit, out.toString(), err.toString());
    }

    @Test
    void plaintextMessagesOfQueuesThatGotSseAreSealedOfflineAndStillReceived() throws Exception {
        String marker = "MARKER-" + UUID.randomUUID();
        String plainMarker = "PLAIN-" + UUID.randomUUID();
        Map<String, MessageAttributeValue> attrs = Map.of(
                "note", MessageAttributeValue.builder().dataType("String").stringValue("attr " + marker).build(),
                "blob", MessageAttributeValue.builder().dataType("Binary")
                        .binaryValue(software.amazon.awssdk.core.SdkBytes.fromUtf8String("bin " + marker)).build());
        Map<String, SendMessageResponse> sent = new HashMap<>(); // by body
        String received;
        try (HikyakuServer server = start(); SqsClient sqs = SseClients.sqs(server.endpoint(), "test", "test");
             KmsClient kms = SseClients.kms(server.endpoint(), "test", "test")) {
            String orders = sqs.createQueue(b -> b.queueName("orders").attributesWithStrings(Map.of("SqsManagedSseEnabled", "false")))
                    .queueUrl();
            String fifo = sqs.createQueue(b -> b.queueName("orders.fifo").attributesWithStrings(Map.of("FifoQueue", "true",
                    "SqsManagedSseEnabled", "false"))).queueUrl();
            String stays = sqs.createQueue(b -> b.queueName("stays-plain").attributesWithStrings(Map.of("SqsManagedSseEnabled", "false")))
                    .queueUrl();
            for (int i = 0; i < 3; i++) {
                String body = "order " + i + " " + marker;
                sent.put(body, sqs.sendMessage(b -> b.queueUrl(orders).messageBody(body).messageAttributes(attrs)));
            }
            String bare = "bare " + marker;
            sent.put(bare, sqs.sendMessage(b -> b.queueUrl(orders).messageBody(bare)));
            for (int i = 0; i < 2; i++) {
                String body = "fifo " + i + " " + marker;
                sent.put(body, sqs.sendMessage(b -> b.queueUrl(fifo).messageBody(body).messageAttributes(attrs)
                        .messageGroupId("g").messageDeduplicationId("dedup-" + body.charAt(5))));
            }
            sqs.sendMessage(b -> b.queueUrl(stays).messageBody("kept " + plainMarker));
            // one in flight when the server stops: its receive count must survive
            received = sqs.receiveMessage(b -> b.queueUrl(orders).maxNumberOfMessages(1).visibilityTimeout(1)).messages().get(0)
                    .messageId();

            String key = kms.createKey(b -> b.description("orders")).keyMetadata().keyId();
            sqs.setQueueAttributes(b -> b.queueUrl(orders).attributesWithStrings(Map.of("SqsManagedSseEnabled", "true")));
            sqs.setQueueAttributes(b -> b.queueUrl(fifo).attributesWithStrings(Map.of("KmsMasterKeyId", key)));

            Run refused = reencrypt();
            assertThat(refused.exit()).as(refused.err()).isEqualTo(1);
            assertThat(refused.err()).contains("in use").contains("stop the server first");
        }
        assertThat(storedMessagesHolding(marker)).as("before: the plaintext is stored").isEqualTo(6);

        Run dry = reencrypt("--dry-run");
        assertThat(dry.exit()).as(dry.err()).isZero();
        assertThat(dry.out()).contains(":orders: SSE-SQS, 4 messages scanned, 4 to re-encrypt, 0 already sealed (dry run)");
        assertThat(storedMessagesHolding(marker)).as("a dry run changes no message").isEqualTo(6);

        long began = System.nanoTime();
        Run run = reencrypt();
        long millis = (System.nanoTime() - began) / 1_000_000;
        assertThat(run.exit()).as(run.err() + run.out()).isZero();
        assertThat(run.out()).contains(":orders: SSE-SQS, 4 messages scanned, 4 re-encrypted, 0 already sealed")
                .contains(":orders.fifo: SSE-KMS (").contains("2 messages scanned, 2 re-encrypted, 0 already sealed")
                .contains(":stays-plain: SSE off, left as it is").contains("re-encrypted 6 messages");
        System.out.println("reencrypt of 6 messages (open, seal, flush and compact): " + millis + " ms");
        // no flush or compaction here: the command's own must have taken the plaintext out of every file
        assertThat(filesHolding(marker)).as("files holding the marker after reencrypt").isEmpty();
        // the tables are compressed: what the store holds is read through it as well
        assertThat(storedMessagesHolding(marker)).as("stored messages holding the marker").isZero();
        assertThat(storedMessagesHolding(plainMarker)).as("the queue without SSE keeps its plain text").isEqualTo(1);

        Run again = reencrypt();
        assertThat(again.exit()).isZero();
        assertThat(again.out()).contains(":orders: SSE-SQS, 4 messages scanned, 0 re-encrypted, 4 already sealed")
                .contains("re-encrypted 0 messages");

        try (HikyakuServer server = start(); SqsClient sqs = SseClients.sqs(server.endpoint(), "test", "test")) {
            List<Message> got = new ArrayList<>();
            for (String name : List.of("orders", "orders.fifo")) {
                String q = sqs.getQueueUrl(b -> b.queueName(name)).queueUrl();
                for (int i = 0; i < 6 && got.size() < sent.size(); i++) {
                    got.addAll(sqs.receiveMessage(b -> b.queueUrl(q).maxNumberOfMessages(10).messageAttributeNames("All")
                            .messageSystemAttributeNames(MessageSystemAttributeName.ALL).waitTimeSeconds(1)).messages());
                    if (name.endsWith(".fifo") && got.stream().filter(m -> m.body().startsWith("fifo")).count() == 2) {
                        break;
                    }
                }
            }
            assertThat(got).extracting(Message::body).containsExactlyInAnyOrderElementsOf(sent.keySet());
            for (Message m : got) {
                SendMessageResponse s = sent.get(m.body());
                assertThat(m.messageId()).isEqualTo(s.messageId());
                assertThat(m.md5OfBody()).isEqualTo(s.md5OfMessageBody()).isEqualTo(SseClients.md5(m.body()));
                assertThat(m.md5OfMessageAttributes()).isEqualTo(s.md5OfMessageAttributes());
                if (s.md5OfMessageAttributes() != null) {
                    assertThat(m.messageAttributes().get("note").stringValue()).isEqualTo("attr " + marker);
                    assertThat(m.messageAttributes().get("blob").binaryValue().asUtf8String()).isEqualTo("bin " + marker);
                } else {
                    assertThat(m.messageAttributes()).isEmpty();
                }
                String count = m.attributes().get(MessageSystemAttributeName.APPROXIMATE_RECEIVE_COUNT);
                assertThat(count).as(m.body()).isEqualTo(m.messageId().equals(received) ? "2" : "1");
                if (m.body().startsWith("fifo")) {
                    assertThat(m.attributes().get(MessageSystemAttributeName.SEQUENCE_NUMBER)).isEqualTo(s.sequenceNumber());
                    assertThat(m.attributes().get(MessageSystemAttributeName.MESSAGE_GROUP_ID)).isEqualTo("g");
                }
            }
        }
    }

    @Test
    void aDisabledKeySkipsItsQueueWithExitOneUntilItIsEnabledAgain() throws Exception {
        String marker = "MARKER-" + UUID.randomUUID();
        String key;
        try (HikyakuServer server = start(); SqsClient sqs = SseClients.sqs(server.endpoint(), "test", "test");
             KmsClient kms = SseClients.kms(server.endpoint(), "test", "test")) {
            String q = sqs.createQueue(b -> b.queueName("locked").attributesWithStrings(Map.of("SqsManagedSseEnabled", "false")))
                    .queueUrl();
            String other = sqs.createQueue(b -> b.queueName("other").attributesWithStrings(Map.of("SqsManagedSseEnabled", "false")))
                    .queueUrl();
            sqs.sendMessage(b -> b.queueUrl(q).messageBody("locked " + marker));
            sqs.sendMessage(b -> b.queueUrl(other).messageBody("other " + marker));
            key = kms.createKey(b -> b.description("locked")).keyMetadata().keyId();
            sqs.setQueueAttributes(b -> b.queueUrl(q).attributesWithStrings(Map.of("KmsMasterKeyId", key)));
            sqs.setQueueAttributes(b -> b.queueUrl(other).attributesWithStrings(Map.of("SqsManagedSseEnabled", "true")));
            kms.disableKey(b -> b.keyId(key));
        }
        Run skipped = reencrypt();
        assertThat(skipped.exit()).as(skipped.err() + skipped.out()).isEqualTo(1);
        assertThat(skipped.out()).contains(":locked: SSE-KMS (" + key + "), SKIPPED").contains("KMS.DisabledException")
                .contains(":other: SSE-SQS, 1 messages scanned, 1 re-encrypted").contains("1 queue(s) skipped");
        assertThat(storedMessagesHolding("locked " + marker)).isEqualTo(1);
        assertThat(storedMessagesHolding("other " + marker)).isZero();

        try (HikyakuServer server = start(); KmsClient kms = SseClients.kms(server.endpoint(), "test", "test")) {
            kms.enableKey(b -> b.keyId(key));
        }
        Run done = reencrypt();
        assertThat(done.exit()).as(done.err() + done.out()).isZero();
        assertThat(done.out()).contains(":locked: SSE-KMS (" + key + "), 1 messages scanned, 1 re-encrypted");
        assertThat(filesHolding(marker)).isEmpty();
        assertThat(storedMessagesHolding(marker)).isZero();
    }

    @Test
    void aDirectoryWithoutAStoreIsRefusedAndLeftEmpty() throws Exception {
        Run run = reencrypt();
        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.err()).contains("no Hikyaku data directory at");
        try (Stream<Path> files = Files.list(dataDir)) {
            assertThat(files).isEmpty();
        }
    }

    @Test
    void aClusterNodesDataDirectoryIsRefused() throws Exception {
        Files.createDirectories(dataDir.resolve("raft"));
        Files.writeString(dataDir.resolve("FORMAT"), "hikyaku-rocksdb-format 1\n");
        Run run = reencrypt();
        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.err()).contains("cluster node's data directory");
    }

    /** How many values of the store's MESSAGES keyspace hold {@code marker} (the store opened offline). */
    private long storedMessagesHolding(String marker) {
        byte[] needle = marker.getBytes(StandardCharsets.UTF_8);
        long[] n = {0};
        try (RocksDbStore store = RocksDbStore.open(dataDir)) {
            store.scan(Keyspace.MESSAGES, new byte[0], (k, v) -> {
                if (MarkerScan.contains(v, needle)) {
                    n[0]++;
                }
                return true;
            });
        }
        return n[0];
    }

    /** Every regular file under the data directory that holds {@code marker}. */
    private List<Path> filesHolding(String marker) throws Exception {
        return MarkerScan.filesHolding(marker, List.of(dataDir), new ArrayList<>());
    }
}
