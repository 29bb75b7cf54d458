package io.hikyaku.servicelog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The single node's service log: framing, replay, what a crash leaves, and the journals of earlier versions. */
class FileServiceLogTest {

    @TempDir
    Path dir;

    private final List<String> warnings = new ArrayList<>();

    private FileServiceLog log(Path file) {
        return new FileServiceLog(file, false, warnings::add);
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static List<String> texts(List<byte[]> records) {
        return records.stream().map(r -> new String(r, StandardCharsets.UTF_8)).toList();
    }

    @Test
    void appendedRecordsReplayInOrderAfterAReopen() throws IOException {
        Path file = dir.resolve("svc").resolve("commands.log");
        try (FileServiceLog log = log(file)) {
            assertThat(log.replay()).isEmpty();
            log.append(b("one"));
            log.appendAll(List.of(b("two"), b("three\nwith a newline")));
        }
        try (FileServiceLog log = log(file)) {
            assertThat(texts(log.replay())).containsExactly("one", "two", "three\nwith a newline");
            log.append(b("four"));
        }
        try (FileServiceLog log = log(file)) {
            assertThat(texts(log.replay())).containsExactly("one", "two", "three\nwith a newline", "four");
        }
        assertThat(warnings).isEmpty();
    }

    @Test
    void aTornLastFrameIsCutOffWithAWarningAndLaterAppendsFollowTheGoodOnes() throws IOException {
        Path file = dir.resolve("commands.log");
        try (FileServiceLog log = log(file)) {
            log.replay();
            log.appendAll(List.of(b("a"), b("bb")));
        }
        long whole = Files.size(file);
        for (long cut : new long[] {whole - 1, whole - 2, whole - 9}) { // inside the record, inside its header
            byte[] all = Files.readAllBytes(file);
            Path torn = dir.resolve("torn-" + cut);
            Files.write(torn, java.util.Arrays.copyOf(all, (int) cut));
            warnings.clear();
            try (FileServiceLog log = log(torn)) {
                assertThat(texts(log.replay())).containsExactly("a");
                assertThat(warnings).singleElement().asString().contains("cut off");
                log.append(b("c"));
            }
            try (FileServiceLog log = log(torn)) {
                assertThat(texts(log.replay())).containsExactly("a", "c");
            }
        }
    }

    @Test
    void aLastRecordWithABadCrcIsCutOffButABadRecordInTheMiddleIsRefused() throws IOException {
        Path file = dir.resolve("commands.log");
        try (FileServiceLog log = log(file)) {
            log.replay();
            log.appendAll(List.of(b("first"), b("second"), b("third")));
        }
        byte[] all = Files.readAllBytes(file);
        byte[] lastBad = all.clone();
        lastBad[lastBad.length - 1] ^= 1; // the last record's last byte
        Path tail = dir.resolve("tail.log");
        Files.write(tail, lastBad);
        try (FileServiceLog log = log(tail)) {
            assertThat(texts(log.replay())).containsExactly("first", "second");
            assertThat(warnings).singleElement().asString().contains("CRC32");
        }
        byte[] middleBad = all.clone();
        int second = FileServiceLog.MAGIC.length + 8 + "first".length() + 8; // the second record's first byte
        middleBad[second] ^= 1;
        Path middle = dir.resolve("middle.log");
        Files.write(middle, middleBad);
        assertThatThrownBy(() -> log(middle).replay()).isInstanceOf(IOException.class)
                .hasMessageContaining("record 2").hasMessageContaining("refusing to skip it");
        assertThat(Files.readAllBytes(middle)).as("a refused file is left as it is").isEqualTo(middleBad);
    }

    @Test
    void zerosAfterTheLastRecordAreCutOff() throws IOException {
        Path file = dir.resolve("commands.log");
        try (FileServiceLog log = log(file)) {
            log.replay();
            log.append(b("kept"));
        }
        Files.write(file, new byte[4096], java.nio.file.StandardOpenOption.APPEND); // a file system's preallocation
        try (FileServiceLog log = log(file)) {
            assertThat(texts(log.replay())).containsExactly("kept");
        }
    }

    @Test
    void aJournalOfAnEarlierVersionIsReadUnchangedAndConvertedOnce() throws IOException {
        // the format SNS, KMS and the Scheduler wrote before the service log: one JSON command a line
        Path file = dir.resolve("sns").resolve("commands.log");
        Files.createDirectories(file.getParent());
        String old = "{\"type\":\"CreateTopic\",\"name\":\"t1\"}\n{\"type\":\"Subscribe\",\"topic\":\"t1\"}\n{\"type\":\"Crea";
        Files.write(file, b(old)); // with a torn last line, never acknowledged
        try (FileServiceLog log = log(file)) {
            assertThat(texts(log.replay())).containsExactly("{\"type\":\"CreateTopic\",\"name\":\"t1\"}",
                    "{\"type\":\"Subscribe\",\"topic\":\"t1\"}");
            assertThat(warnings).anyMatch(w -> w.contains("converted a journal of 2 records"));
            log.append(b("{\"type\":\"DeleteTopic\"}"));
        }
        assertThat(Files.readAllBytes(file)).startsWith(FileServiceLog.MAGIC);
        warnings.clear();
        try (FileServiceLog log = log(file)) {
            assertThat(texts(log.replay())).containsExactly("{\"type\":\"CreateTopic\",\"name\":\"t1\"}",
                    "{\"type\":\"Subscribe\",\"topic\":\"t1\"}", "{\"type\":\"DeleteTopic\"}");
        }
        assertThat(warnings).isEmpty();
        assertThat(Files.exists(file.resolveSibling("commands.log.tmp"))).isFalse();
    }

    @Test
    void anEmptyRecordIsRefused() throws IOException {
        try (FileServiceLog log = log(dir.resolve("x.log"))) {
            log.replay();
            assertThatThrownBy(() -> log.append(new byte[0])).isInstanceOf(IOException.class);
        }
    }
}
