package io.hikyaku.bench.stats;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** CPU time and resident memory of a process, read from /proc (Linux). */
public final class ProcStats {
    /** USER_HZ: the kernel reports utime/stime in these ticks (100 on every mainstream Linux). */
    public static final long TICKS_PER_SECOND = 100;

    private ProcStats() {
    }

    /** utime+stime of the process in microseconds, or -1 if unreadable (process gone, not Linux). */
    public static long cpuMicros(String pid) {
        try {
            String stat = Files.readString(Path.of("/proc", pid, "stat"));
            return parseCpuMicros(stat);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    public static long selfCpuMicros() {
        return cpuMicros("self");
    }

    /** VmRSS in KiB, or -1. */
    public static long rssKib(String pid) {
        try {
            return parseRssKib(Files.readString(Path.of("/proc", pid, "status")));
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    static long parseCpuMicros(String stat) {
        // The command name (field 2) may contain spaces: fields are counted after the last ')'.
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
        long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]); // utime, stime (fields 14 and 15)
        return ticks * 1_000_000 / TICKS_PER_SECOND;
    }

    static long parseRssKib(String status) {
        for (String line : status.split("\n")) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.substring(6).trim().split("\\s+")[0]);
            }
        }
        return -1;
    }
}
