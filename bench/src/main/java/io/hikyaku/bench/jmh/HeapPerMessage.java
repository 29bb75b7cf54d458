package io.hikyaku.bench.jmh;

import io.hikyaku.engine.command.Command;
import io.hikyaku.engine.AttributeUpdate;
import io.hikyaku.engine.CreateQueue;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.List;
import java.util.Map;

/**
 * Heap the engine's index holds per stored message (writes discarded, so bodies are not counted):
 * sends {@code n} messages, measures the live heap after a full collection, sends {@code n} more and
 * measures again; the difference over {@code n} is the marginal cost of one message (the body cache's
 * fixed budget cancels out). Standard queue, 256 B bodies; then the same with every message in flight
 * (50,000 at a time: a standard queue holds at most 120,000 in flight); last, the heap of an empty queue.
 * Run: {@code java -Xmx4g -cp bench/target/hikyaku-bench.jar io.hikyaku.bench.jmh.HeapPerMessage [n]}.
 */
public final class HeapPerMessage {

    private HeapPerMessage() {
    }

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        EngineFixture visible = new EngineFixture("heap-visible", Map.of(), StubStore.discarding());
        sendAll(visible, n);
        long a = liveHeap();
        sendAll(visible, n);
        long b = liveHeap();
        System.out.printf("standard queue, visible:   %.1f B per stored message (%,d messages)%n", (b - a) / (double) n, 2L * n);

        // a standard queue holds at most 120,000 messages in flight
        int m = Math.min(n, 50_000);
        EngineFixture inflight = new EngineFixture("heap-inflight", Map.of("VisibilityTimeout", "43200"), StubStore.discarding());
        sendAndReceiveAll(inflight, m);
        long c = liveHeap();
        sendAndReceiveAll(inflight, m);
        long d = liveHeap();
        System.out.printf("standard queue, in flight: %.1f B per stored message (%,d messages)%n", (d - c) / (double) m, 2L * m);

        int queues = 10_000;
        EngineFixture many = new EngineFixture("heap-queues-0", Map.of(), StubStore.discarding());
        long e = liveHeap();
        for (int i = 1; i <= queues; i++) {
            many.engine.apply(new Command.CreateQueue(new CreateQueue(EngineFixture.ACCOUNT, null, "heap-queues-" + i,
                    AttributeUpdate.of(Map.of()), null, many.now()))).durable();
        }
        long f = liveHeap();
        System.out.printf("empty standard queue:      %.0f B per queue (%,d queues)%n", (f - e) / (double) queues, queues);
        // keep the engines reachable until the last measurement
        if (visible.engine.hashCode() == inflight.engine.hashCode() || many.engine.hashCode() == 0) {
            System.out.println();
        }
    }

    private static void sendAll(EngineFixture f, int n) {
        for (int i = 0; i < n; i++) {
            f.send(EngineFixture.BODY, null);
        }
    }

    private static void sendAndReceiveAll(EngineFixture f, int n) {
        for (int i = 0; i < n; i += 10) {
            for (int j = 0; j < 10; j++) {
                f.send(EngineFixture.BODY, null);
            }
            List<?> got = f.receive(10, null);
            if (got.size() != 10) {
                throw new IllegalStateException("received " + got.size() + " of 10");
            }
        }
    }

    private static long liveHeap() {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return memory.getHeapMemoryUsage().getUsed();
    }
}
