package io.hikyaku.bench.scenario;

import io.hikyaku.bench.check.CorrectnessReport;
import io.hikyaku.bench.stats.LatencyRecorder;
import io.hikyaku.bench.stats.ResultLine;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/** Turns a finished run's window, latencies and checks into a ResultLine. */
final class Results {
    private Results() {
    }

    static ResultLine line(BenchConfig cfg, long messages, LatencyRecorder latency, Window w, RunState state,
                           Map<String, String> extra) {
        Map<String, String> all = new LinkedHashMap<>();
        if (state != null && !cfg.ceiling()) {
            CorrectnessReport r = state.checker.report();
            all.put("sent", Long.toString(r.sent()));
            all.put("received", Long.toString(r.received()));
            all.put("deleted", Long.toString(r.deleted()));
            all.put("lost", Long.toString(r.lost()));
            all.put("dup", Long.toString(r.duplicates()));
            all.put("order_violations", Long.toString(r.orderViolations()));
            if (r.unacknowledged() > 0) {
                all.put("unacknowledged_received", Long.toString(r.unacknowledged()));
            }
            if (r.unknown() > 0) {
                all.put("unknown", Long.toString(r.unknown()));
            }
            // drain-stored receives what another run sent: sent = received = deleted cannot hold there.
            all.put("check", cfg.scenario().equals("drain-stored") ? (r.duplicates() == 0 && r.unknown() == 0 ? "n/a" : "FAIL")
                    : r.clean() ? "ok" : "FAIL");
        }
        all.putAll(extra);
        if (state != null && state.firstError() != null) {
            String e = state.firstError().replaceAll("\\s+", "_");
            all.put("first_error", e.length() > 120 ? e.substring(0, 120) : e);
        }
        double rate = w.seconds > 0 ? messages / w.seconds : -1;
        return new ResultLine(Instant.now(), cfg.resultName(), cfg.server(), rate,
                latency == null ? -1 : latency.percentileMs(50), latency == null ? -1 : latency.percentileMs(99),
                latency == null ? -1 : latency.percentileMs(99.9), w.serverCpuPer(messages), w.rssMib(),
                w.clientCpuPer(messages), state == null ? 0 : state.errors.get(), all);
    }
}
