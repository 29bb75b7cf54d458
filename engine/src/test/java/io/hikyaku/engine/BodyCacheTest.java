package io.hikyaku.engine;

import io.hikyaku.engine.command.Command;
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
        f.engine.apply(new Command.SendMessage(q, withDigest(f.message("cached", null, null), "digest-1"), f.now)).durable();
        f.engine.apply(new Command.SendMessage(q, withDigest(f.message("stored", null, null), "digest-2"), f.now)).durable();
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
    void oneReceiveMixesCachedAndStoredBodiesEachWithItsOwnMessage() {
        QueueRef q = f.create("q");
        java.util.Map<String, String> bodyById = new java.util.HashMap<>();
        for (int i = 0; i < 6; i++) {
            bodyById.put(f.send(q, "stored-" + i).messageId(), "stored-" + i);
        }
        HeadCuttingStore store = f.restartOverHeadCuttingStore(); // those six bodies are now only in the store
        for (int i = 0; i < 4; i++) {
            bodyById.put(f.send(q, "cached-" + i).messageId(), "cached-" + i);
        }
        List<ReceivedMessage> got = f.receive(q, 10);
        assertThat(got).hasSize(10);
        for (ReceivedMessage m : got) {
            assertThat(m.body()).as(m.messageId()).isEqualTo(bodyById.get(m.messageId()));
            assertThat(m.approximateReceiveCount()).isEqualTo(1);
        }
        assertThat(store.gets).isEqualTo(6); // only the bodies the cache no longer holds
        // Received again after the visibility timeout: all ten from the store now.
        f.advanceSeconds(31);
        List<ReceivedMessage> again = f.receive(q, 10);
        assertThat(again).extracting(ReceivedMessage::messageId)
                .containsExactlyInAnyOrderElementsOf(bodyById.keySet());
        again.forEach(m -> assertThat(m.body()).isEqualTo(bodyById.get(m.messageId())));
        assertThat(store.gets).isEqualTo(16);
    }

    @Test
    void deletePurgeAndRetentionRelease() {
        QueueRef q = f.create("q", "MessageRetentionPeriod", "60");
        f.send(q, "a");
        f.send(q, "b");
        f.engine.apply(new Command.PurgeQueue(q, f.now)).durable();
        assertThat(used()).isZero();
        f.send(q, "c");
        f.advanceSeconds(61);
        f.engine.tick(f.now);
        assertThat(used()).isZero();
        f.send(q, "d");
        f.engine.apply(new Command.DeleteQueue(q, f.now)).durable();
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
