package io.hikyaku.bench;

import io.hikyaku.bench.check.CorrectnessChecker;
import io.hikyaku.bench.check.CorrectnessReport;
import io.hikyaku.bench.check.MessageBody;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class CorrectnessCheckerTest {
    private static MessageBody m(long seq, int group, long groupSeq) {
        return new MessageBody(seq, group, groupSeq, 0);
    }

    @Test
    void cleanRunIsClean() {
        CorrectnessChecker c = new CorrectnessChecker(true);
        for (long i = 0; i < 5; i++) {
            c.sent(i);
        }
        for (long i = 0; i < 5; i++) {
            assertThat(c.received(m(i, 0, i))).isTrue();
            c.deleted(i);
        }
        CorrectnessReport r = c.report();
        assertThat(r.clean()).isTrue();
        assertThat(c.drained()).isTrue();
        assertThat(r.sent()).isEqualTo(5);
    }

    @Test
    void detectsLoss() {
        CorrectnessChecker c = new CorrectnessChecker(false);
        c.sent(0);
        c.sent(1);
        c.sent(2);
        c.received(m(0, 0, 0));
        c.received(m(2, 0, 0));
        CorrectnessReport r = c.report();
        assertThat(r.lost()).isEqualTo(1);
        assertThat(r.clean()).isFalse();
        assertThat(c.drained()).isFalse();
    }

    /**
     * A send answered with an error that committed anyway (a leader change) is received too: the
     * count of receipts then reaches the count of acknowledged sends while an acknowledged message
     * is still queued. The drain must wait for that id, and the extra receipt is not a failure.
     */
    @Test
    void drainWaitsForEveryAcknowledgedIdNotForTheCount() {
        CorrectnessChecker c = new CorrectnessChecker(false);
        c.sent(0);
        c.sent(1);
        // 2 was answered 503 but committed: never acknowledged, received anyway
        c.received(m(0, 0, 0));
        c.deleted(0);
        c.received(m(2, 0, 0));
        c.deleted(2);
        assertThat(c.receivedCount()).isEqualTo(c.sentCount());
        assertThat(c.drained()).isFalse();
        assertThat(c.report().lost()).isEqualTo(1);
        c.received(m(1, 0, 0));
        assertThat(c.drained()).isFalse(); // received, not yet deleted
        assertThat(c.report().undeleted()).isEqualTo(1);
        c.deleted(1);
        assertThat(c.drained()).isTrue();
        CorrectnessReport r = c.report();
        assertThat(r.lost()).isZero();
        assertThat(r.unacknowledged()).isEqualTo(1);
        assertThat(r.clean()).isTrue();
    }

    @Test
    void detectsDuplicates() {
        CorrectnessChecker c = new CorrectnessChecker(false);
        c.sent(7);
        assertThat(c.received(m(7, 0, 0))).isTrue();
        assertThat(c.received(m(7, 0, 0))).isFalse();
        c.deleted(7);
        CorrectnessReport r = c.report();
        assertThat(r.duplicates()).isEqualTo(1);
        assertThat(r.received()).isEqualTo(1);
        assertThat(r.clean()).isFalse();
    }

    @Test
    void detectsOrderViolationsPerGroupOnly() {
        CorrectnessChecker c = new CorrectnessChecker(true);
        c.received(m(0, 1, 0));
        c.received(m(1, 2, 0)); // another group may interleave freely
        c.received(m(3, 1, 2));
        c.received(m(2, 1, 1)); // group 1 went backwards
        c.received(m(4, 2, 1));
        assertThat(c.report().orderViolations()).isEqualTo(1);
    }

    @Test
    void orderIsNotCheckedForStandardQueues() {
        CorrectnessChecker c = new CorrectnessChecker(false);
        c.received(m(1, 0, 5));
        c.received(m(0, 0, 1));
        assertThat(c.report().orderViolations()).isZero();
    }

    @Test
    void foreignBodiesCountAsUnknown() {
        CorrectnessChecker c = new CorrectnessChecker(false);
        c.received(MessageBody.decode("hello"));
        assertThat(c.report().unknown()).isEqualTo(1);
    }

    @Test
    void bodyRoundTripsAndHasTheRequestedSize() {
        MessageBody b = new MessageBody(123456, 42, 7, 987654321L);
        String s = b.encode(256);
        assertThat(s).hasSize(256);
        assertThat(MessageBody.decode(s)).isEqualTo(b);
        assertThat(MessageBody.decode("1:2:x:4:")).isNull();
    }
}
