package io.hikyaku.server.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class DescriptorBudgetTest {

    private static final Path DIR = Path.of("/var/lib/hikyaku");

    @Test
    void enoughDescriptorsForTwiceTheTablesPlusHeadroomSaysNothing() {
        assertThat(DescriptorBudget.warning(DIR, 0, 1024)).isNull();
        assertThat(DescriptorBudget.warning(DIR, 500, 2_024)).isNull();
        assertThat(DescriptorBudget.warning(DIR, 5000, 1_048_576)).isNull();
        // RocksDB keeps at most MAX_OPEN_TABLES open, however many tables there are
        assertThat(DescriptorBudget.warning(DIR, 50_000, 2_048 + 1_024)).isNull();
    }

    @Test
    void tooFewDescriptorsNameTheDirectoryTheCountsAndTheFix() {
        assertThat(DescriptorBudget.warning(DIR, 5000, 2000))
                .contains("/var/lib/hikyaku", "5000 table files", "only 2000 files", "at least 3072", "ulimit -n");
        assertThat(DescriptorBudget.warning(DIR, 1, 1000)).contains("at least 1026");
    }

    @Test
    void anUnknownLimitSaysNothing() {
        assertThat(DescriptorBudget.warning(DIR, 5000, 0)).isNull();
        assertThat(DescriptorBudget.warning(DIR, 5000, -1)).isNull();
    }

    @Test
    void theSoftLimitIsReadFromProcLimits() {
        java.util.List<String> limits = java.util.List.of(
                "Limit                     Soft Limit           Hard Limit           Units     ",
                "Max processes             95904                95904                processes ",
                "Max open files            20000                1048576              files     ",
                "Max locked memory         8388608              8388608              bytes     ");
        assertThat(DescriptorBudget.softLimit(limits)).isEqualTo(20_000);
        assertThat(DescriptorBudget.softLimit(java.util.List.of("Max open files            unlimited            unlimited            files"))).isEqualTo(Long.MAX_VALUE);
        assertThat(DescriptorBudget.softLimit(java.util.List.of("Max processes 1 1 processes"))).isZero();
    }

    @Test
    void thisProcessLimitIsTheOneTheJvmReports() {
        if (java.lang.management.ManagementFactory.getOperatingSystemMXBean()
                instanceof com.sun.management.UnixOperatingSystemMXBean os) {
            assertThat(DescriptorBudget.openFileLimit()).isEqualTo(os.getMaxFileDescriptorCount());
        }
    }
}
