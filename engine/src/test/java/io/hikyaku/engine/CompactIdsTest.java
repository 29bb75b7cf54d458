package io.hikyaku.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class CompactIdsTest {

    @Test
    void canonicalUuidsRoundTripExactly() {
        Random random = new Random(5);
        for (int i = 0; i < 10_000; i++) {
            String text = new UUID(random.nextLong(), random.nextLong()).toString();
            long[] parts = CompactIds.parseUuid(text);
            assertThat(parts).isNotNull();
            assertThat(CompactIds.uuidText(parts[0], parts[1])).isEqualTo(text);
        }
        assertThat(CompactIds.uuidText(0, 0)).isEqualTo("00000000-0000-0000-0000-000000000000");
        assertThat(CompactIds.parseUuid("ffffffff-ffff-ffff-ffff-ffffffffffff")).containsExactly(-1L, -1L);
    }

    @Test
    void anythingElseIsNotCompact() {
        assertThat(CompactIds.parseUuid(null)).isNull();
        assertThat(CompactIds.parseUuid("")).isNull();
        assertThat(CompactIds.parseUuid("6F9619FF-8B86-D011-B42D-00C04FC964FF")).as("upper case would not round-trip").isNull();
        assertThat(CompactIds.parseUuid("6f9619ff8b86-d011-b42d-00c04fc964ff0")).isNull();
        assertThat(CompactIds.parseUuid("6f9619ff-8b86-d011-b42d-00c04fc964fg")).isNull();
        assertThat(CompactIds.parseUuid("6f9619ff-8b86-d011-b42d-00c04fc964f")).isNull();
        assertThat(CompactIds.parseUuid("{6f9619ff-8b86-d011-b42d-00c04fc964}")).isNull();
    }

    @Test
    void sequenceNumbersInOurFormRoundTrip() {
        for (long n : new long[] {0, 1, 9, 10, 123_456_789, Long.MAX_VALUE}) {
            String text = SendRules.sequenceNumber(n);
            assertThat(CompactIds.parseSequenceNumber(text)).isEqualTo(n);
        }
        assertThat(CompactIds.parseSequenceNumber("10000000000000000000")).isZero();
        assertThat(CompactIds.parseSequenceNumber("19223372036854775807")).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void otherSequenceNumbersAreNotCompact() {
        assertThat(CompactIds.parseSequenceNumber(null)).isEqualTo(-1);
        assertThat(CompactIds.parseSequenceNumber("19223372036854775808")).as("beyond a long").isEqualTo(-1);
        assertThat(CompactIds.parseSequenceNumber("19999999999999999999")).isEqualTo(-1);
        assertThat(CompactIds.parseSequenceNumber("20000000000000000001")).isEqualTo(-1);
        assertThat(CompactIds.parseSequenceNumber("1000000000000000001")).as("19 characters").isEqualTo(-1);
        assertThat(CompactIds.parseSequenceNumber("1000000000000000000x")).isEqualTo(-1);
        assertThat(CompactIds.parseSequenceNumber("1-000000000000000001")).isEqualTo(-1);
    }
}
