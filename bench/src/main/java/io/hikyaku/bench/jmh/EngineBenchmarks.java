package io.hikyaku.bench.jmh;

import io.hikyaku.engine.command.Command;
import io.hikyaku.engine.ReceivedMessage;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Engine hot paths with the store stubbed out (StubStore), single-threaded as the engine runs.
 * Run: java -cp bench/target/hikyaku-bench.jar org.openjdk.jmh.Main 'io.hikyaku.bench.jmh.*'
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(value = 1, jvmArgs = {"-Xms1g", "-Xmx4g"})
public class EngineBenchmarks {

    /** A standard queue refreshed every iteration (send grows it). */
    @State(Scope.Thread)
    public static class Standard {
        EngineFixture f;

        @Setup(Level.Iteration)
        public void setup() {
            f = new EngineFixture("bench", Map.of());
        }
    }

    /** A standard queue holding 10,000 visible messages. */
    @State(Scope.Thread)
    public static class Loaded {
        EngineFixture f;

        @Setup(Level.Iteration)
        public void setup() {
            f = new EngineFixture("loaded", Map.of());
            for (int i = 0; i < 10_000; i++) {
                f.send(EngineFixture.BODY, null);
            }
        }
    }

    /** 10,000 messages received once with a long visibility timeout: their handles. */
    @State(Scope.Thread)
    public static class InFlight {
        EngineFixture f;
        List<String> handles = new ArrayList<>();
        int next;

        @Setup(Level.Iteration)
        public void setup() {
            f = new EngineFixture("inflight", Map.of());
            for (int i = 0; i < 10_000; i++) {
                f.send(EngineFixture.BODY, null);
            }
            handles.clear();
            for (int i = 0; i < 1_000; i++) {
                for (ReceivedMessage m : f.receive(10, 43_000)) {
                    handles.add(m.receiptHandle());
                }
            }
            next = 0;
        }
    }

    /** A FIFO queue with 100 groups of 100 messages each. */
    @State(Scope.Thread)
    public static class Fifo {
        EngineFixture f;
        int group;

        @Setup(Level.Iteration)
        public void setup() {
            f = new EngineFixture("bench.fifo", Map.of("FifoQueue", "true"));
            for (int i = 0; i < 10_000; i++) {
                f.send(EngineFixture.BODY, "g" + (i % 100));
            }
        }
    }

    @Benchmark
    public Object send(Standard s) {
        EngineFixture f = s.f;
        return f.engine.apply(new Command.SendMessage(f.queue, new io.hikyaku.engine.SendMessage(EngineFixture.BODY, null, null, null,
                null, null, "bench", f.messageId()), f.now())).durable().value();
    }

    /** Receive of up to 10 with visibility 0, so the same messages stay receivable. */
    @Benchmark
    public Object receive10(Loaded s) {
        return s.f.receive(10, 0);
    }

    /** One message's whole life: send, receive, delete (steady state, the queue stays empty). */
    @Benchmark
    public void sendReceiveDelete(Standard s, Blackhole bh) {
        EngineFixture f = s.f;
        f.send(EngineFixture.BODY, null);
        for (ReceivedMessage m : f.receive(1, 30)) {
            bh.consume(f.engine.apply(new Command.DeleteMessage(f.queue, m.receiptHandle(), f.now())).durable().value());
        }
    }

    @Benchmark
    public Object changeVisibility(InFlight s) {
        String handle = s.handles.get(s.next++ % s.handles.size());
        return s.f.engine.apply(new Command.ChangeVisibility(s.f.queue, handle, 40_000, s.f.now())).durable().value();
    }

    /**
     * FIFO group selection: receive up to 10 from 100 groups, delete them, and send as many back
     * to keep the queue level (the group rotation and lock/unlock are the cost measured).
     */
    @Benchmark
    public void fifoReceiveDelete10(Fifo s, Blackhole bh) {
        EngineFixture f = s.f;
        List<ReceivedMessage> got = f.receive(10, 30);
        for (ReceivedMessage m : got) {
            bh.consume(f.engine.apply(new Command.DeleteMessage(f.queue, m.receiptHandle(), f.now())).durable().value());
            f.send(EngineFixture.BODY, m.groupId());
        }
    }
}
