package io.hikyaku.durability;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;

/**
 * Encrypted queues survive kill -9: messages sent to an SSE-SQS queue and to an SSE-KMS queue (alias/aws/sqs,
 * created on first use) before a SIGKILL all open after the restart, with their attributes and the plaintext's
 * MD5s: the master key, the keys' log and the wrapped data keys in each message were all on disk.
 */
class SseCrashTest {

    @TempDir
    Path dir;

    @Test
    void everyEncryptedMessageOpensAfterKillNine() throws Exception {
        Path jar = ServerProcess.builtJar();
        Path data = dir.resolve("data");
        Map<String, String> bodies = new HashMap<>();
        ServerProcess server = ServerProcess.start(jar, data, dir.resolve("server.log"), 60);
        try (SqsClient sqs = Clients.sqs(server.endpoint())) {
            String sseSqs = sqs.createQueue(b -> b.queueName("crash-sse-sqs")).queueUrl();
            String sseKms = sqs.createQueue(b -> b.queueName("crash-sse-kms")
                    .attributesWithStrings(Map.of("KmsMasterKeyId", "alias/aws/sqs"))).queueUrl();
            for (int i = 0; i < 40; i++) {
                String q = i % 2 == 0 ? sseSqs : sseKms;
                String body = "secret " + i + " " + "x".repeat(i * 997 % 5000);
                sqs.sendMessage(b -> b.queueUrl(q).messageBody(body).messageAttributes(Map.of("n",
                        MessageAttributeValue.builder().dataType("Number").stringValue(Integer.toString(body.length())).build())));
                bodies.put(body, q.substring(q.lastIndexOf('/') + 1));
            }
        }
        server.kill();
        server = ServerProcess.start(jar, data, dir.resolve("server.log"), 60);
        try (SqsClient sqs = Clients.sqs(server.endpoint())) {
            Map<String, String> got = new HashMap<>();
            for (String name : new String[] {"crash-sse-sqs", "crash-sse-kms"}) {
                String q = sqs.getQueueUrl(b -> b.queueName(name)).queueUrl();
                for (int i = 0; i < 20 && got.size() < bodies.size(); i++) {
                    for (Message m : sqs.receiveMessage(b -> b.queueUrl(q).maxNumberOfMessages(10).messageAttributeNames("All")
                            .waitTimeSeconds(1)).messages()) {
                        assertThat(m.md5OfBody()).isEqualTo(md5(m.body()));
                        assertThat(m.messageAttributes().get("n").stringValue()).isEqualTo(Integer.toString(m.body().length()));
                        got.put(m.body(), name);
                    }
                }
            }
            assertThat(got).isEqualTo(bodies);
        } finally {
            server.close();
        }
    }

    private static String md5(String s) throws Exception {
        return String.format("%032x", new BigInteger(1, MessageDigest.getInstance("MD5").digest(s.getBytes(StandardCharsets.UTF_8))));
    }
}
