package io.hikyaku.engine.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hikyaku.engine.AttributeUpdate;
import io.hikyaku.engine.CreateQueue;
import io.hikyaku.engine.MessageAttribute;
import io.hikyaku.engine.QueueEngine;
import io.hikyaku.engine.QueueInfo;
import io.hikyaku.engine.QueueRef;
import io.hikyaku.engine.ReceiveMessages;
import io.hikyaku.engine.ReceivedMessage;
import io.hikyaku.engine.RedrivePolicy;
import io.hikyaku.engine.SendMessage;
import io.hikyaku.engine.StartMoveTask;
import io.hikyaku.engine.VisibilityChange;
import io.hikyaku.engine.store.MemoryStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Commands as data: a workload run on one engine is recorded as the commands it applied (through
 * the codec, as the journal does), replayed on a fresh engine over another store, and the two state
 * digests agree; a different sequence gives a different digest.
 */
class ReplayDigestTest {

    private static final String ACCOUNT = "123456789012";
    private static final long T0 = 1_700_000_000_000L;

    /** An engine that records every command it applies, encoded. */
    private static final class Recording {
        final QueueEngine engine = new QueueEngine(new MemoryStore(), "us-east-1");
        final List<byte[]> log = new ArrayList<>();
        long now = T0;

        <R> Applied<R> apply(Command<R> c) {
            log.add(CommandCodec.encode(c));
            return engine.apply(c);
        }
    }

    private static Recording workload(long seed) {
        Random random = new Random(seed);
        Recording r = new Recording();
        QueueRef dlq = r.apply(create("dlq", Map.of(), r.now)).value().ref();
        String dlqArn = "arn:aws:sqs:us-east-1:" + ACCOUNT + ":dlq";
        QueueRef std = r.apply(new Command.CreateQueue(new CreateQueue(ACCOUNT, null, "std",
                new AttributeUpdate(Map.of("VisibilityTimeout", "5", "RedrivePolicy",
                        "{\"deadLetterTargetArn\":\"" + dlqArn + "\",\"maxReceiveCount\":\"2\"}"),
                        new RedrivePolicy(dlqArn, 2), null), Map.of("team", "a"), r.now))).value().ref();
        QueueRef fifo = r.apply(create("f.fifo", Map.of("FifoQueue", "true", "ContentBasedDeduplication", "true"),
                r.now)).value().ref();
        int ids = 0;
        for (int step = 0; step < 400; step++) {
            r.now += random.nextInt(3) == 0 ? random.nextInt(8000) : random.nextInt(50);
            int op = random.nextInt(10);
            QueueRef q = random.nextBoolean() ? std : fifo;
            if (op < 4) {
                String body = "m" + random.nextInt(20) + " \u00e9\uD83D\uDE80";
                SendMessage m = new SendMessage(body, Map.of("n", new MessageAttribute("Number", "" + step, null)),
                        null, q == std ? random.nextInt(3) : null, q == fifo ? "g" + random.nextInt(3) : null, null,
                        ACCOUNT, "id-" + (++ids));
                r.apply(new Command.SendMessage(q, m, r.now));
            } else if (op < 7) {
                Applied<List<ReceivedMessage>> got = r.apply(new Command.ReceiveMessage(q,
                        new ReceiveMessages(1 + random.nextInt(10), null, null, random.nextLong(), r.now)));
                List<ReceivedMessage> ms = got.refused() ? List.of() : got.value();
                for (ReceivedMessage m : ms) {
                    int what = random.nextInt(4);
                    if (what == 0) {
                        r.apply(new Command.DeleteMessage(q, m.receiptHandle(), r.now));
                    } else if (what == 1) {
                        r.apply(new Command.ChangeVisibilityBatch(q,
                                List.of(new VisibilityChange(m.receiptHandle(), random.nextInt(3))), r.now));
                    }
                }
            } else if (op == 7) {
                r.apply(new Command.Advance(q, r.now));
                r.engine.readQueueAttributes(q, List.of("All"));
            } else if (op == 8) {
                r.apply(new Command.Tick(r.now));
            } else if (random.nextInt(10) == 0) {
                r.apply(new Command.TagQueue(q, Map.of("k" + random.nextInt(3), "v"), r.now));
                r.apply(new Command.PurgeQueue(q, r.now)); // often refused (60 s): a refusal is journalled too
            }
        }
        r.now += 1000;
        r.apply(new Command.StartMoveTask(new StartMoveTask(dlqArn, null, 10, "task-1", r.now)));
        for (int i = 0; i < 5; i++) {
            r.now += 1000;
            r.apply(new Command.Tick(r.now));
        }
        return r;
    }

    private static Command.CreateQueue create(String name, Map<String, String> attributes, long now) {
        return new Command.CreateQueue(new CreateQueue(ACCOUNT, null, name, AttributeUpdate.of(attributes), null, now));
    }

    private static String replay(List<byte[]> log) {
        QueueEngine fresh = new QueueEngine(new MemoryStore(), "us-east-1");
        for (byte[] record : log) {
            fresh.apply(CommandCodec.decode(record));
        }
        return fresh.digest();
    }

    @Test
    void theSameCommandsGiveTheSameDigest() {
        for (long seed = 1; seed <= 5; seed++) {
            Recording r = workload(seed);
            assertTrue(r.log.size() > 400);
            assertEquals(r.engine.digest(), replay(r.log), "seed " + seed);
            assertEquals(r.engine.digest(), r.engine.digest(), "a digest is a pure read");
        }
    }

    @Test
    void aDifferentSequenceGivesADifferentDigest() {
        Recording r = workload(1);
        String digest = r.engine.digest();
        assertNotEquals(digest, workload(2).engine.digest());
        List<byte[]> dropped = new ArrayList<>(r.log);
        dropped.remove(dropped.size() / 2);
        assertNotEquals(digest, replay(dropped), "one command left out");
        List<byte[]> later = new ArrayList<>(r.log);
        later.add(CommandCodec.encode(new Command.Tick(r.now + 3_600_000)));
        assertNotEquals(digest, replay(later), "time moved on");
    }

    @Test
    void refusalsAreResultsThatChangeNothing() {
        Recording r = workload(3);
        String before = r.engine.digest();
        Applied<Void> refused = r.engine.apply(new Command.DeleteQueue(new QueueRef(ACCOUNT, "nope"), r.now));
        assertTrue(refused.refused());
        assertEquals("QueueDoesNotExist", refused.errorType());
        assertFalse(refused.errorMessage().isEmpty());
        assertEquals(before, r.engine.digest());
        Applied<List<ReceivedMessage>> bad = r.engine.apply(new Command.ReceiveMessage(new QueueRef(ACCOUNT, "std"),
                new ReceiveMessages(11, null, null, 1, r.now)));
        assertEquals("InvalidParameterValue", bad.errorType());
        assertEquals(before, r.engine.digest());
    }
}
