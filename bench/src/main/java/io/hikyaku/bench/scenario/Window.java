package io.hikyaku.bench.scenario;

import io.hikyaku.bench.stats.ProcStats;

/** A measuring window: wall time, server and client CPU between open and close. */
final class Window {
    private final String serverPid;
    private long startNanos;
    private long serverCpuStart;
    private long clientCpuStart;
    double seconds;
    long serverCpuMicros = -1;
    long clientCpuMicros;
    long serverRssKib = -1;

    Window(String serverPid) {
        this.serverPid = serverPid;
    }

    Window open() {
        startNanos = System.nanoTime();
        serverCpuStart = serverPid == null ? -1 : ProcStats.cpuMicros(serverPid);
        clientCpuStart = ProcStats.selfCpuMicros();
        return this;
    }

    Window close() {
        seconds = (System.nanoTime() - startNanos) / 1e9;
        if (serverPid != null && serverCpuStart >= 0) {
            long end = ProcStats.cpuMicros(serverPid);
            serverCpuMicros = end < 0 ? -1 : end - serverCpuStart;
            serverRssKib = ProcStats.rssKib(serverPid);
        }
        clientCpuMicros = ProcStats.selfCpuMicros() - clientCpuStart;
        return this;
    }

    double serverCpuPer(long messages) {
        return serverCpuMicros < 0 || messages <= 0 ? -1 : (double) serverCpuMicros / messages;
    }

    double clientCpuPer(long messages) {
        return messages <= 0 ? -1 : (double) clientCpuMicros / messages;
    }

    double rssMib() {
        return serverRssKib < 0 ? -1 : serverRssKib / 1024.0;
    }
}
