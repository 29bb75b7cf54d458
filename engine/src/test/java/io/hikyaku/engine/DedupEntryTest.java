package io.hikyaku.engine;

import static org.assertj.core.api.Assertions.assertThat;

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
    void theStoredFormIsUnchangedAndDecodesToAnEqualEntry() {
        String id = "0f8fad5b-d9cb-469f-a165-70867728950e";
        String seqNo = SendRules.sequenceNumber(7);
        DedupEntry e = new DedupEntry("k", id, seqNo, 99);
        byte[] expected = Enc.version(1).str(id).str(seqNo).i64(99).done();
        assertThat(e.encode()).isEqualTo(expected);
        DedupEntry back = DedupEntry.decode("k", e.encode());
        assertThat(back).isEqualTo(e).hasSameHashCodeAs(e);
        assertThat(back.messageId()).isEqualTo(id);
        DedupEntry text = new DedupEntry("k", "x", null, 5);
        assertThat(DedupEntry.decode("k", text.encode())).isEqualTo(text);
    }
}
