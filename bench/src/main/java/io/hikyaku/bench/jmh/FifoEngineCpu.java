package io.hikyaku.bench.jmh;

import io.hikyaku.engine.command.Command;
import io.hikyaku.engine.AttributeUpdate;
import io.hikyaku.engine.CreateQueue;
import io.hikyaku.engine.QueueEngine;
import io.hikyaku.engine.QueueRef;
import io.hikyaku.engine.ReceiveMessages;
import io.hikyaku.engine.ReceivedMessage;
import io.hikyaku.engine.SendMessage;
import io.hikyaku.engine.store.MemoryStore;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Engine CPU per FIFO message, in thread CPU time (so the load of other processes on a shared machine
 * does not count the way it counts in wall time): a FIFO queue on a MemoryStore with 10,000 messages in
 * 100 groups, then ReceiveMessage 10 + DeleteMessage + SendMessage to the same group per message;
 * prints us per message for each of ARG measurements of 300,000 messages, after two unmeasured ones.
 * To compare builds, put a build's engine classes first: {@code java -cp OLD/engine/target/classes:bench/target/classes
 * io.hikyaku.bench.jmh.FifoEngineCpu 3}.
 */
public final class FifoEngineCpu {

    private static final long START = 1_767_225_600_000L;
    private static long commands;
    private static long ids;
    private static long nonce = 1;

    private FifoEngineCpu() {}

    /** Engine time: 1 ms more every 1024 commands, so nothing ever waits on it. */
    private static long now() {
        return START + (commands++ >> 10);
    }

    private static String id() {
        return new UUID(0x4000L, ++ids).toString();
    }

    public static void main(String[] args) {
        ThreadMXBean tm = ManagementFactory.getThreadMXBean();
        QueueEngine e = new QueueEngine(MemoryStore.forServing(), "us-east-1");
        QueueRef q = new QueueRef("000000000000", "bench.fifo");
        e.apply(new Command.CreateQueue(new CreateQueue("000000000000", null, "bench.fifo", AttributeUpdate.of(Map.of("FifoQueue", "true")), null, now()))).durable();
        String body = "x".repeat(256);
        for (int i = 0; i < 10_000; i++) {
            e.apply(new Command.SendMessage(q, new SendMessage(body, null, null, null, "g" + (i % 100), id(), "bench", id()), now())).durable();
        }
        int rounds = Integer.parseInt(args[0]);
        for (int r = -2; r < rounds; r++) {
            long t0 = tm.getCurrentThreadCpuTime();
            long n = 0;
            while (n < 300_000) {
                nonce = nonce * 6364136223846793005L + 1442695040888963407L;
                List<ReceivedMessage> got = e.apply(new Command.ReceiveMessage(q, new ReceiveMessages(10, 30, null, nonce, now()))).durable().value();
                for (ReceivedMessage m : got) {
                    e.apply(new Command.DeleteMessage(q, m.receiptHandle(), now())).durable();
                    e.apply(new Command.SendMessage(q, new SendMessage(body, null, null, null, m.groupId(), id(), "bench", id()), now())).durable();
                }
                n += got.size();
            }
            long ns = tm.getCurrentThreadCpuTime() - t0;
            if (r >= 0) {
                System.out.printf("%.3f%n", ns / (double) n / 1000.0);
            }
        }
    }
}
