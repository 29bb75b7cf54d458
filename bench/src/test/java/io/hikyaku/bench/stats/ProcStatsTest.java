package io.hikyaku.bench.stats;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ProcStatsTest {
    @Test
    void parsesUtimePlusStimeAfterACommandNameWithSpaces() {
        String stat = "1234 (my (odd) proc) S 1 1234 1234 0 -1 4194560 100 0 0 0 250 50 0 0 20 0 30 0 1 2 3";
        assertThat(ProcStats.parseCpuMicros(stat)).isEqualTo(300 * 1_000_000L / ProcStats.TICKS_PER_SECOND);
    }

    @Test
    void parsesVmRss() {
        assertThat(ProcStats.parseRssKib("Name:\tjava\nVmPeak:\t 999 kB\nVmRSS:\t  123456 kB\n")).isEqualTo(123456);
        assertThat(ProcStats.parseRssKib("Name:\tx\n")).isEqualTo(-1);
    }

    @Test
    void readsThisProcess() {
        assertThat(ProcStats.selfCpuMicros()).isPositive();
        assertThat(ProcStats.rssKib(Long.toString(ProcessHandle.current().pid()))).isPositive();
        assertThat(ProcStats.cpuMicros("999999999")).isEqualTo(-1);
    }
}
