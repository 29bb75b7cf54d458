package io.hikyaku.sns;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SnsTopicsDurabilityTest {

    @TempDir
    Path dir;

    private static List<SnsCommand> script() {
        String topic = "arn:aws:sns:us-east-1:000000000000:orders";
        return List.of(
                new SnsCommand.CreateTopic("000000000000", "us-east-1", "orders", Map.of("DisplayName", "O"), Map.of("t", "1"), 5L),
                new SnsCommand.Subscribe("000000000000", topic, "sqs", "arn:aws:sqs:us-east-1:000000000000:q",
                        Map.of("FilterPolicy", "{\"k\":[\"v\"]}"), "11111111-1111-1111-1111-111111111111", "tok", "p", 6L),
                new SnsCommand.SetTopicAttribute("000000000000", topic, "SignatureVersion", "2"),
                new SnsCommand.AddPermission("000000000000", topic, "l", List.of("111122223333"), List.of("Publish")));
    }

    @Test
    void aRestartReplaysToTheSameDigestAndRefusalsAreNeverWritten() throws Exception {
        String digest;
        try (SnsTopics topics = SnsTopics.open(SnsCommandLog.inDataDir(dir))) {
            for (SnsCommand c : script()) {
                topics.apply(c);
            }
            assertThatThrownBy(() -> topics.apply(new SnsCommand.SetTopicAttribute("000000000000",
                    "arn:aws:sns:us-east-1:000000000000:orders", "SignatureVersion", "3"))).isInstanceOf(SnsException.class);
            digest = topics.digest();
        }
        try (SnsCommandLog log = SnsCommandLog.inDataDir(dir)) {
            assertThat(log.load()).hasSize(4);
        }
        try (SnsTopics reopened = SnsTopics.open(SnsCommandLog.inDataDir(dir))) {
            assertThat(reopened.digest()).isEqualTo(digest);
            assertThat(reopened.topicAttributes("arn:aws:sns:us-east-1:000000000000:orders"))
                    .containsEntry("SignatureVersion", "2").containsEntry("DisplayName", "O");
        }
        SnsState fresh = new SnsState();
        for (SnsCommand c : script()) {
            fresh.apply(c);
        }
        assertThat(fresh.digest()).as("apply is deterministic: same commands, same state").isEqualTo(digest);
    }

    @Test
    void aTornTailIsCutOffAndDamageElsewhereIsRefused() throws Exception {
        try (SnsTopics topics = SnsTopics.open(SnsCommandLog.inDataDir(dir))) {
            topics.apply(script().get(0));
        }
        Path log = dir.resolve("sns/commands.log");
        long whole = Files.size(log);
        Files.write(log, new byte[] {0, 0, 0, 60, 9, 9, 9, 9, '{'}, StandardOpenOption.APPEND); // a torn frame
        try (SnsTopics topics = SnsTopics.open(SnsCommandLog.inDataDir(dir))) {
            assertThat(topics.topicArns("000000000000")).hasSize(1);
        }
        assertThat(Files.size(log)).isEqualTo(whole);
        byte[] damaged = Files.readAllBytes(log);
        damaged[damaged.length - 2] ^= 1; // inside the first record: its CRC no longer matches, and a record follows
        try (SnsTopics topics = SnsTopics.open(SnsCommandLog.inDataDir(dir))) {
            topics.apply(script().get(1));
        }
        byte[] two = Files.readAllBytes(log);
        System.arraycopy(damaged, 0, two, 0, damaged.length);
        Files.write(log, two);
        assertThatThrownBy(() -> SnsTopics.open(SnsCommandLog.inDataDir(dir))).hasMessageContaining("record 1")
                .hasMessageContaining("refusing to skip it");
    }

    @Test
    void aFailedWriteFencesTheService() throws Exception {
        SnsJournal failing = new SnsJournal() {
            @Override
            public List<SnsCommand> load() {
                return List.of();
            }

            @Override
            public void append(SnsCommand command) throws java.io.IOException {
                throw new java.io.IOException("disk full");
            }

            @Override
            public void close() {
            }
        };
        SnsTopics topics = SnsTopics.open(failing);
        assertThatThrownBy(() -> topics.apply(script().get(0)))
                .isInstanceOfSatisfying(SnsException.class, e -> assertThat(e.status()).isEqualTo(500));
        assertThatThrownBy(() -> topics.apply(new SnsCommand.DeleteTopic("000000000000", "arn:aws:sns:us-east-1:000000000000:x")))
                .isInstanceOfSatisfying(SnsException.class, e -> assertThat(e.code()).isEqualTo("InternalError"));
    }
}
