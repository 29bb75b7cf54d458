package io.hikyaku.it.metrics;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A small parser of the Prometheus text format: samples with their labels; comments checked for shape. */
final class PrometheusText {

    record Sample(String name, Map<String, String> labels, double value) {}

    final List<Sample> samples = new ArrayList<>();
    final Map<String, String> types = new LinkedHashMap<>();

    static PrometheusText parse(String text) {
        PrometheusText out = new PrometheusText();
        for (String line : text.split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            if (line.startsWith("# TYPE ")) {
                String[] parts = line.substring(7).split(" ");
                out.types.put(parts[0], parts[1]);
                continue;
            }
            if (line.startsWith("#")) {
                continue;
            }
            out.samples.add(sample(line));
        }
        return out;
    }

    private static Sample sample(String line) {
        int brace = line.indexOf('{');
        int space;
        String name;
        Map<String, String> labels = new LinkedHashMap<>();
        if (brace >= 0 && brace < line.indexOf(' ')) {
            name = line.substring(0, brace);
            int end = line.indexOf('}', brace);
            String body = line.substring(brace + 1, end);
            int i = 0;
            while (i < body.length()) {
                int eq = body.indexOf('=', i);
                String key = body.substring(i, eq);
                int q1 = eq + 1;
                if (body.charAt(q1) != '"') {
                    throw new IllegalArgumentException("label value not quoted: " + line);
                }
                StringBuilder v = new StringBuilder();
                int j = q1 + 1;
                while (body.charAt(j) != '"') {
                    if (body.charAt(j) == '\\') {
                        j++;
                    }
                    v.append(body.charAt(j));
                    j++;
                }
                labels.put(key, v.toString());
                i = j + 1;
                if (i < body.length() && body.charAt(i) == ',') {
                    i++;
                }
            }
            space = end + 1;
        } else {
            space = line.indexOf(' ');
            name = line.substring(0, space);
        }
        String rest = line.substring(space).trim().split(" ")[0];
        return new Sample(name, labels, Double.parseDouble(rest));
    }

    /** The value of the one sample named {@code name} whose labels include {@code labels}; NaN-free. */
    double value(String name, Map<String, String> labels) {
        List<Sample> found = samples.stream().filter(s -> s.name().equals(name)
                && s.labels().entrySet().containsAll(labels.entrySet())).toList();
        if (found.size() != 1) {
            throw new AssertionError("expected one sample " + name + labels + ", found " + found);
        }
        return found.get(0).value();
    }

    boolean has(String name, Map<String, String> labels) {
        return samples.stream().anyMatch(s -> s.name().equals(name) && s.labels().entrySet().containsAll(labels.entrySet()));
    }
}
