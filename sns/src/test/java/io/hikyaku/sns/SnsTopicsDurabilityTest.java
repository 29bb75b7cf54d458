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
        try (SnsTopics topics = SnsTopics.open(new FileSnsJournal(dir))) {
            for (SnsCommand c : script()) {
                topics.apply(c);
            }
            assertThatThrownBy(() -> topics.apply(new SnsCommand.SetTopicAttribute("000000000000",
                    "arn:aws:sns:us-east-1:000000000000:orders", "SignatureVersion", "3"))).isInstanceOf(SnsException.class);
            digest = topics.digest();
        }
        assertThat(Files.readAllLines(dir.resolve("sns/commands.log"))).hasSize(4);
        try (SnsTopics reopened = SnsTopics.open(new FileSnsJournal(dir))) {
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
        try (SnsTopics topics = SnsTopics.open(new FileSnsJournal(dir))) {
            topics.apply(script().get(0));
        }
        Path log = dir.resolve("sns/commands.log");
        Files.write(log, "{\"type\":\"DeleteTo".getBytes(StandardCharsets.UTF_8), StandardOpenOption.APPEND);
        try (SnsTopics topics = SnsTopics.open(new FileSnsJournal(dir))) {
            assertThat(topics.topicArns("000000000000")).hasSize(1);
        }
        assertThat(Files.readString(log)).endsWith("}\n");
        Files.writeString(log, "garbage\n" + Files.readString(log));
        assertThatThrownBy(() -> SnsTopics.open(new FileSnsJournal(dir))).hasMessageContaining("command 1 is damaged");
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
