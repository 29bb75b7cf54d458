import io.hikyaku.engine.command.Command;
import io.hikyaku.engine.AttributeUpdate;
import io.hikyaku.engine.CreateQueue;
import io.hikyaku.engine.EngineShard;
import io.hikyaku.engine.QueueEngine;
import io.hikyaku.engine.QueueRef;
import io.hikyaku.engine.ReceiveMessages;
import io.hikyaku.engine.ReceivedMessage;
import io.hikyaku.engine.SendMessage;
import io.hikyaku.engine.store.MemoryStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The engine layer alone (no HTTP, no clients): two engine shards over one in-memory store, each with
 * a queue of its own account, driven by a send-batch / receive / delete-batch loop. The same work runs
 * once on one thread (shard after shard: what one engine thread does) and once on two threads at the
 * same time (each shard on its own, as with --engine-shards 2); prints both wall times and the speed-up.
 * On an otherwise idle machine with at least two cores it shows whether the shards share anything.
 *
 * usage: java -cp server/target/hikyaku.jar bench/shards/EngineShardsBench.java [MESSAGES_PER_SHARD=1000000] [ROUNDS=3]
 */
public class EngineShardsBench {
    static final String A0 = accountOn(0);
    static final String A1 = accountOn(1);

    public static void main(String[] args) throws Exception {
        long perShard = args.length > 0 ? Long.parseLong(args[0]) : 1_000_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        for (int r = 0; r <= rounds; r++) { // round 0 warms the JIT up
            MemoryStore store = new MemoryStore();
            QueueEngine[] e = {engine(store, 0), engine(store, 1)};
            long t0 = System.nanoTime();
            work(e[0], A0, perShard);
            work(e[1], A1, perShard);
            long serial = System.nanoTime() - t0;
            store = new MemoryStore();
            QueueEngine[] p = {engine(store, 0), engine(store, 1)};
            long t1 = System.nanoTime();
            Thread other = new Thread(() -> work(p[1], A1, perShard));
            other.start();
            work(p[0], A0, perShard);
            other.join();
            long parallel = System.nanoTime() - t1;
            if (r > 0) {
                System.out.printf("round=%d messages=%d one_thread_ms=%d two_threads_ms=%d speedup=%.2f%n", r,
                        2 * perShard, serial / 1_000_000, parallel / 1_000_000, (double) serial / parallel);
            }
        }
    }

    static String accountOn(int shard) {
        for (long n = 100000000000L; ; n++) {
            if (EngineShard.of(Long.toString(n), 2) == shard) {
                return Long.toString(n);
            }
        }
    }

    static QueueEngine engine(MemoryStore store, int shard) {
        return new QueueEngine(store, "us-east-1", 1, Long.MAX_VALUE, QueueEngine.DEFAULT_INDEX_WINDOW,
                new EngineShard(shard, 2));
    }

    /** Sends, receives and deletes {@code n} messages in batches of 10 on its own queue; time is a counter. */
    static void work(QueueEngine engine, String account, long n) {
        long now = 1_000;
        engine.apply(new Command.CreateQueue(new CreateQueue(account, null, "q", AttributeUpdate.of(Map.of()), null, ++now))).durable();
        QueueRef q = new QueueRef(account, "q");
        String body = "x".repeat(256);
        long id = 0;
        long nonce = 0;
        for (long done = 0; done < n; done += 10) {
            List<SendMessage> batch = new ArrayList<>(10);
            for (int i = 0; i < 10; i++) {
                batch.add(new SendMessage(body, null, null, null, null, null, account,
                        String.format("00000000-0000-4000-8000-%012x", ++id)));
            }
            engine.apply(new Command.SendMessageBatch(q, batch, ++now)).durable();
            List<ReceivedMessage> got = engine.apply(new Command.ReceiveMessage(q, new ReceiveMessages(10, 30, null, ++nonce, ++now))).durable().value();
            List<String> handles = new ArrayList<>(got.size());
            for (ReceivedMessage m : got) {
                handles.add(m.receiptHandle());
            }
            engine.apply(new Command.DeleteMessageBatch(q, handles, ++now)).durable();
        }
    }
}
