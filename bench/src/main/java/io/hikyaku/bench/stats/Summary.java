package io.hikyaku.bench.stats;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Medians per (scenario, server) over result lines, with ratios against a baseline server of
 * the same scenario: throughput x (higher is better) and server CPU per message x (baseline / this).
 */
public final class Summary {
    static final String[] COLUMNS = {"msgs_s", "p50_ms", "p99_ms", "p999_ms", "server_cpu_us_msg",
            "server_rss_mib", "client_cpu_us_msg", "errors", "server_cpu_us_req", "startup_ms",
            "data_ready_ms", "rss_per_waiter_kib"};

    private Summary() {
    }

    public static List<Map<String, String>> read(Path dir, Instant since) throws IOException {
        List<Map<String, String>> rows = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return rows;
        }
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".txt")).sorted().toList()) {
                for (String line : Files.readAllLines(f)) {
                    if (line.isBlank()) {
                        continue;
                    }
                    Map<String, String> row = ResultLine.parse(line);
                    Instant time = resultTime(row);
                    if (time == null || (since != null && time.isBefore(since))) {
                        continue; // not a result line (e.g. a JMH table kept beside them), or too old
                    }
                    rows.add(row);
                }
            }
        }
        return rows;
    }

    /** The time of a result line, or null when the line is not one (no scenario or no timestamp). */
    private static Instant resultTime(Map<String, String> row) {
        if (!row.containsKey("scenario") || row.get("time") == null) {
            return null;
        }
        try {
            return Instant.parse(row.get("time"));
        } catch (java.time.format.DateTimeParseException e) {
            return null;
        }
    }

    public static String table(List<Map<String, String>> rows, String baseline) {
        Map<String, Map<String, List<Map<String, String>>>> grouped = new LinkedHashMap<>();
        for (Map<String, String> r : rows) {
            grouped.computeIfAbsent(r.get("scenario"), k -> new LinkedHashMap<>())
                    .computeIfAbsent(r.get("server"), k -> new ArrayList<>()).add(r);
        }
        List<String> cols = new ArrayList<>();
        for (String c : COLUMNS) {
            if (rows.stream().anyMatch(r -> r.containsKey(c) && !r.get(c).equals("-1"))) {
                cols.add(c);
            }
        }
        StringBuilder sb = new StringBuilder();
        sb.append("| scenario | server | runs | ").append(String.join(" | ", cols))
                .append(" | msgs_s vs ").append(baseline).append(" | cpu/msg vs ").append(baseline).append(" |\n");
        sb.append("|---".repeat(cols.size() + 5)).append("|\n");
        grouped.forEach((scenario, servers) -> {
            Map<String, Double> base = medians(servers.get(baseline), cols);
            servers.forEach((server, list) -> {
                Map<String, Double> med = medians(list, cols);
                sb.append("| ").append(scenario).append(" | ").append(server).append(" | ").append(list.size());
                for (String c : cols) {
                    sb.append(" | ").append(fmt(med.get(c)));
                }
                sb.append(" | ").append(ratio(med.get("msgs_s"), base.get("msgs_s")))
                        .append(" | ").append(ratio(base.get("server_cpu_us_msg"), med.get("server_cpu_us_msg")))
                        .append(" |\n");
            });
        });
        return sb.toString();
    }

    static Map<String, Double> medians(List<Map<String, String>> list, List<String> cols) {
        Map<String, Double> out = new LinkedHashMap<>();
        if (list == null) {
            return out;
        }
        for (String c : cols) {
            double[] v = list.stream().map(r -> r.get(c)).filter(s -> s != null && !s.equals("-1"))
                    .mapToDouble(Double::parseDouble).sorted().toArray();
            out.put(c, median(v));
        }
        return out;
    }

    static Double median(double[] sorted) {
        if (sorted.length == 0) {
            return null;
        }
        double[] s = Arrays.copyOf(sorted, sorted.length);
        Arrays.sort(s);
        int m = s.length / 2;
        return s.length % 2 == 1 ? s[m] : (s[m - 1] + s[m]) / 2;
    }

    static String fmt(Double v) {
        if (v == null) {
            return "-";
        }
        return Math.abs(v) >= 100 ? String.format(Locale.ROOT, "%.0f", v) : String.format(Locale.ROOT, "%.2f", v);
    }

    static String ratio(Double num, Double den) {
        if (num == null || den == null || den == 0) {
            return "-";
        }
        return String.format(Locale.ROOT, "%.2fx", num / den);
    }
}
