package io.hikyaku.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class DedupEntryTest {

    @Test
    void compactIdsComeBackAsTheTextGiven() {
        String id = "0f8fad5b-d9cb-469f-a165-70867728950e";
        String seqNo = SendRules.sequenceNumber(42);
        DedupEntry e = new DedupEntry("k", id, seqNo, 1234);
        assertThat(e.key()).isEqualTo("k");
        assertThat(e.messageId()).isEqualTo(id);
        assertThat(e.sequenceNumber()).isEqualTo(seqNo);
        assertThat(e.expiresAt()).isEqualTo(1234);
    }

    @Test
    void otherIdsAreKeptAsText() {
        DedupEntry e = new DedupEntry("k", "Not-A-UUID", "00042", 1);
        assertThat(e.messageId()).isEqualTo("Not-A-UUID");
        assertThat(e.sequenceNumber()).isEqualTo("00042");
        DedupEntry upper = new DedupEntry("k", "0F8FAD5B-D9CB-469F-A165-70867728950E", null, 1);
        assertThat(upper.messageId()).isEqualTo("0F8FAD5B-D9CB-469F-A165-70867728950E");
        assertThat(upper.sequenceNumber()).isNull();
    }

    @Test
    void theOlderStoredFormIsUnchangedAndReadsBackTextKeyed() {
        String id = "0f8fad5b-d9cb-469f-a165-70867728950e";
        String seqNo = SendRules.sequenceNumber(7);
        DedupEntry e = new DedupEntry("k", id, seqNo, 99);
        byte[] expected = Enc.version(1).str(id).str(seqNo).i64(99).done();
        assertThat(e.encode()).isEqualTo(expected);
        DedupEntry back = DedupEntry.decode("k", e.encode());
        assertThat(back.textKeyed()).isTrue(); // read from under its text key, so it stays there
        assertThat(back.key()).isEqualTo(e.key());
        assertThat(back.expiresAt()).isEqualTo(e.expiresAt());
        assertThat(back.messageId()).isEqualTo(id);
        DedupEntry text = new DedupEntry("k", "x", null, 5);
        DedupEntry textBack = DedupEntry.decode("k", text.encode());
        assertThat(textBack.messageId()).isEqualTo("x");
        assertThat(textBack.sequenceNumber()).isNull();
    }

    @Test
    void theCompactFormRoundTripsEveryKindOfEntry() {
        String id = "0f8fad5b-d9cb-469f-a165-70867728950e";
        String hash = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";
        List<DedupEntry> entries = List.of(
                new DedupEntry(hash, id, SendRules.sequenceNumber(1), 10),                      // content, queue scope
                new DedupEntry("group-7\0" + hash, id, SendRules.sequenceNumber(2), 20),       // content, group scope
                new DedupEntry("my-dedup-id", id, SendRules.sequenceNumber(3), 30),            // explicit id
                new DedupEntry(hash.toUpperCase(java.util.Locale.ROOT), id, SendRules.sequenceNumber(4), 40), // not lower hex
                new DedupEntry("g\0" + hash.substring(1), id, SendRules.sequenceNumber(5), 50), // 63 hex digits
                new DedupEntry("\u65e5\u672c" + hash, "Not-A-UUID", SendRules.sequenceNumber(6), 60));
        for (DedupEntry e : entries) {
            assertThat(e.keyedBySeq()).isTrue();
            assertThat(e.textKeyed()).isFalse();
            DedupEntry back = DedupEntry.decodeCompact(e.seq(), e.encodeCompact());
            assertThat(back).isEqualTo(e).hasSameHashCodeAs(e);
            assertThat(back.key()).isEqualTo(e.key());
            assertThat(back.messageId()).isEqualTo(e.messageId());
            assertThat(back.sequenceNumber()).isEqualTo(e.sequenceNumber());
        }
        // a content-hash entry: 17-byte key and 66-byte value, against 73 + 73 bytes in the older form
        DedupEntry content = entries.get(0);
        assertThat(content.encodeCompact()).hasSize(66);
        assertThat(Keys.dedupEntry(1, content)).hasSize(17);
        assertThat(Keys.dedup(1, content.key()).length + content.encode().length).isEqualTo(146);
    }

    @Test
    void entriesWithoutOurSequenceNumberOrReadFromATextKeyStayUnderTheirText() {
        DedupEntry noSeq = new DedupEntry("k", "0f8fad5b-d9cb-469f-a165-70867728950e", "00042", 1);
        assertThat(noSeq.keyedBySeq()).isFalse();
        assertThat(Keys.dedupEntry(5, noSeq)).isEqualTo(Keys.dedup(5, "k"));
        assertThatThrownBy(noSeq::encodeCompact).isInstanceOf(IllegalStateException.class);
        DedupEntry fresh = new DedupEntry("k", "0f8fad5b-d9cb-469f-a165-70867728950e", SendRules.sequenceNumber(9), 1);
        DedupEntry loaded = DedupEntry.decode("k", fresh.encode());
        assertThat(loaded.textKeyed()).isTrue();
        assertThat(loaded.keyedBySeq()).isFalse();
        assertThat(loaded).isNotEqualTo(fresh);
        assertThat(Keys.dedupEntry(5, loaded)).isEqualTo(Keys.dedup(5, "k"));
        assertThat(Keys.dedupEntry(5, fresh)).isEqualTo(Keys.dedupBySeq(5, 9));
    }
}
