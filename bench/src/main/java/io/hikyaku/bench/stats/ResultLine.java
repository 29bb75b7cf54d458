package io.hikyaku.bench.stats;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * One benchmark result, written as a single line of key=value pairs so it is both readable and
 * machine-parsable (bench summarize). Unknown numbers are written as -1 (unmeasured or n/a).
 */
public record ResultLine(Instant time, String scenario, String server, double msgsPerSec, double p50Ms,
                         double p99Ms, double p999Ms, double serverCpuUsPerMsg, double serverRssMib,
                         double clientCpuUsPerMsg, long errors, Map<String, String> extra) {

    public String format() {
        StringBuilder sb = new StringBuilder();
        sb.append(time.toString())
                .append(" scenario=").append(scenario)
                .append(" server=").append(server)
                .append(" msgs_s=").append(num(msgsPerSec, 1))
                .append(" p50_ms=").append(num(p50Ms, 3))
                .append(" p99_ms=").append(num(p99Ms, 3))
                .append(" p999_ms=").append(num(p999Ms, 3))
                .append(" server_cpu_us_msg=").append(num(serverCpuUsPerMsg, 2))
                .append(" server_rss_mib=").append(num(serverRssMib, 1))
                .append(" client_cpu_us_msg=").append(num(clientCpuUsPerMsg, 2))
                .append(" errors=").append(errors);
        extra.forEach((k, v) -> sb.append(' ').append(k).append('=').append(v.replace(' ', '_')));
        return sb.toString();
    }

    static String num(double v, int decimals) {
        if (Double.isNaN(v) || v < 0) {
            return "-1";
        }
        return String.format(Locale.ROOT, "%." + decimals + "f", v);
    }

    /** All key=value pairs of a formatted line (the leading timestamp under "time"). */
    public static Map<String, String> parse(String line) {
        Map<String, String> out = new LinkedHashMap<>();
        String[] parts = line.trim().split("\\s+");
        for (int i = 0; i < parts.length; i++) {
            int eq = parts[i].indexOf('=');
            if (eq > 0) {
                out.put(parts[i].substring(0, eq), parts[i].substring(eq + 1));
            } else if (i == 0) {
                out.put("time", parts[i]);
            }
        }
        return out;
    }
}
