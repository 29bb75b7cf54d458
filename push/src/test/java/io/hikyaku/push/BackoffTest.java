package io.hikyaku.push;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class BackoffTest {

    @Test
    void doublesFromOneSecondUpToThirtyOnTheGivenClockAndResetsOnSuccess() {
        Backoff b = new Backoff();
        assertThat(b.remainingMillis(0)).isZero();
        assertThat(b.fail(1_000)).isEqualTo(1_000);
        assertThat(b.remainingMillis(1_500)).isEqualTo(500);
        assertThat(b.fail(2_000)).isEqualTo(2_000);
        assertThat(b.fail(2_000)).isEqualTo(4_000);
        for (int i = 0; i < 10; i++) {
            b.fail(10_000);
        }
        assertThat(b.fail(10_000)).isEqualTo(30_000);
        assertThat(b.remainingMillis(10_000)).isEqualTo(30_000);
        b.reset();
        assertThat(b.remainingMillis(10_000)).isZero();
        assertThat(b.streak()).isZero();
    }
}
