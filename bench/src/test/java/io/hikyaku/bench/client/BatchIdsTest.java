package io.hikyaku.bench.client;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class BatchIdsTest {
    @Test
    void idsRoundTripToTheirIndex() {
        for (int i = 0; i < 25; i++) {
            assertThat(BatchIds.id('e', i)).isEqualTo("e" + i);
            assertThat(BatchIds.index('e', BatchIds.id('e', i))).isEqualTo(i);
            assertThat(BatchIds.index('d', BatchIds.id('d', i))).isEqualTo(i);
        }
    }

    @Test
    void anythingElseIsNoIndex() {
        for (String id : new String[] {null, "", "e", "d1", "e-1", "e01", "ex", "E1", "e1x", "e12345678901"}) {
            assertThat(BatchIds.index('e', id)).as(String.valueOf(id)).isEqualTo(-1);
        }
        assertThat(BatchIds.index('e', "e0")).isZero();
    }
}
