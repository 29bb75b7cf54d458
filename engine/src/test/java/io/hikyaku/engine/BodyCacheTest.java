package io.hikyaku.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class BodyCacheTest {

    private final EngineFixture f = new EngineFixture();

    private long used() {
        return f.engine.queues.bodies.usedBytes();
    }

    @Test
    void cachedUntilDeliveredThenReleased() {
        QueueRef q = f.create("q");
        f.send(q, "hello");
        assertThat(used()).isPositive();
        List<ReceivedMessage> got = f.receive(q, 10);
        assertThat(got).extracting(ReceivedMessage::body).containsExactly("hello");
        assertThat(used()).isZero();
    }

    @Test
    void theSendersBodyDigestComesBackWhileTheBodyIsInMemoryAndNotFromTheStore() {
        QueueRef q = f.create("q");
        f.engine.sendMessage(q, withDigest(f.message("cached", null, null), "digest-1"), f.now);
        f.engine.sendMessage(q, withDigest(f.message("stored", null, null), "digest-2"), f.now);
        assertThat(f.receive(q, 1)).extracting(ReceivedMessage::bodyDigest).containsExactly("digest-1");
        f.restart(); // bodies now come from the store, which never held the digest
        List<ReceivedMessage> got = f.receive(q, 10);
        assertThat(got).extracting(ReceivedMessage::body).containsExactly("stored");
        assertThat(got.get(0).bodyDigest()).isNull();
        f.advanceSeconds(31); // the first one again, after its visibility timeout: read back from the store
        assertThat(f.receive(q, 10)).extracting(ReceivedMessage::bodyDigest).containsOnlyNulls();
    }

    private static SendMessage withDigest(SendMessage m, String digest) {
        return new SendMessage(m.body(), m.attributes(), m.awsTraceHeader(), m.delaySeconds(), m.groupId(),
                m.deduplicationId(), m.senderId(), m.messageId(), digest);
    }

    @Test
    void deletePurgeAndRetentionRelease() {
        QueueRef q = f.create("q", "MessageRetentionPeriod", "60");
        f.send(q, "a");
        f.send(q, "b");
        f.engine.purgeQueue(q, f.now);
        assertThat(used()).isZero();
        f.send(q, "c");
        f.advanceSeconds(61);
        f.engine.tick(f.now);
        assertThat(used()).isZero();
        f.send(q, "d");
        f.engine.deleteQueue(q, f.now);
        assertThat(used()).isZero();
    }

    @Test
    void aFullBudgetFallsBackToTheStoreWithTheSameResults() {
        QueueRef q = f.create("q");
        String big = "x".repeat(200_000);
        List<String> sent = new ArrayList<>();
        for (int i = 0; i < 60; i++) { // ~24 MB of charge: more than the budget
            sent.add(i + big);
            f.send(q, i + big);
        }
        assertThat(used()).isLessThanOrEqualTo(BodyCache.DEFAULT_LIMIT_BYTES);
        List<String> received = new ArrayList<>();
        List<ReceivedMessage> batch;
        while (!(batch = f.receive(q, 10)).isEmpty()) {
            batch.forEach(m -> received.add(m.body()));
        }
        assertThat(received).containsExactlyInAnyOrderElementsOf(sent);
        assertThat(used()).isZero();
    }
}
