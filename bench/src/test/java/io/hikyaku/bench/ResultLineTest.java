package io.hikyaku.bench;

import io.hikyaku.bench.stats.ResultLine;
import io.hikyaku.bench.stats.ResultsFile;
import io.hikyaku.bench.stats.Summary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ResultLineTest {
    private static ResultLine line(String server, double rate, double cpu) {
        Map<String, String> extra = new LinkedHashMap<>();
        extra.put("lost", "0");
        extra.put("note", "two words");
        return new ResultLine(Instant.parse("2026-12-02T10:00:00Z"), "cycle", server, rate, 1.5, 4.25, 9.125, cpu,
                300.04, 12.345, 2, extra);
    }

    @Test
    void formatsAllFieldsAsKeyValues() {
        assertThat(line("elasticmq-memory", 1234.56, 50).format()).isEqualTo(
                "2026-12-02T10:00:00Z scenario=cycle server=elasticmq-memory msgs_s=1234.6 p50_ms=1.500 "
                        + "p99_ms=4.250 p999_ms=9.125 server_cpu_us_msg=50.00 server_rss_mib=300.0 "
                        + "client_cpu_us_msg=12.35 errors=2 lost=0 note=two_words");
    }

    @Test
    void unmeasuredNumbersAreMinusOne() {
        ResultLine l = new ResultLine(Instant.EPOCH, "idle", "x", -1, Double.NaN, -1, -1, -1, 100, -1, 0, Map.of());
        assertThat(l.format()).contains("msgs_s=-1 p50_ms=-1").contains("server_rss_mib=100.0");
    }

    @Test
    void parseReadsBackWhatFormatWrote() {
        Map<String, String> m = ResultLine.parse(line("s", 10, 1).format());
        assertThat(m).containsEntry("time", "2026-12-02T10:00:00Z").containsEntry("scenario", "cycle")
                .containsEntry("msgs_s", "10.0").containsEntry("errors", "2").containsEntry("note", "two_words");
    }

    @Test
    void appendsToDatedScenarioFile(@TempDir Path dir) throws Exception {
        Path f = ResultsFile.append(dir, line("a", 1, 1));
        ResultsFile.append(dir, line("b", 2, 2));
        assertThat(f.getFileName().toString()).isEqualTo("2026-12-02-cycle.txt");
        assertThat(Files.readAllLines(f)).hasSize(2);
    }

    @Test
    void summaryGivesMediansAndRatiosAgainstTheBaseline(@TempDir Path dir) throws Exception {
        for (double r : new double[]{100, 300, 200}) {
            ResultsFile.append(dir, line("elasticmq-memory", r, 100));
        }
        for (double r : new double[]{1000, 900, 5000}) {
            ResultsFile.append(dir, line("hikyaku", r, 10));
        }
        List<Map<String, String>> rows = Summary.read(dir, null);
        assertThat(rows).hasSize(6);
        String table = Summary.table(rows, "elasticmq-memory");
        assertThat(table).contains("| cycle | elasticmq-memory | 3 | 200 |");
        assertThat(table).contains("| cycle | hikyaku | 3 | 1000 |");
        assertThat(table).contains("5.00x | 10.00x |");
        assertThat(Summary.read(dir, Instant.parse("2026-12-03T00:00:00Z"))).isEmpty();
    }

    @Test
    void summarySkipsLinesThatAreNotResultLines(@TempDir Path dir) throws Exception {
        ResultsFile.append(dir, line("hikyaku", 1000, 10));
        Files.writeString(dir.resolve("2026-12-02-jmh.txt"),
                "Benchmark  Mode  Cnt  Score  Error  Units\nEngineBenchmarks.send  avgt  5  5.6 ± 1.0  us/op\n");
        assertThat(Summary.read(dir, Instant.parse("2026-12-01T00:00:00Z"))).hasSize(1);
        assertThat(Summary.read(dir, null)).hasSize(1);
    }
}
