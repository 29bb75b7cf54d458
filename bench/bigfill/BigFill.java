import io.hikyaku.engine.command.Command;
import io.hikyaku.engine.AttributeUpdate;
import io.hikyaku.engine.CreateQueue;
import io.hikyaku.engine.QueueEngine;
import io.hikyaku.engine.QueueRef;
import io.hikyaku.engine.SendMessage;
import io.hikyaku.store.rocksdb.Durability;
import io.hikyaku.store.rocksdb.RocksDbStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Fills a data directory with N stored messages in one standard queue, in-process (the engine and the
 * RocksDB store of the server's jar, the same code the server runs, without HTTP): for backlogs too
 * big to preload over the API in reasonable time. 256-byte bodies in the bench's preload form, batches
 * of 10, durability BATCH.
 *
 * usage: java -cp server/target/hikyaku.jar bench/bigfill/BigFill.java DATA_DIR QUEUE N
 */
public class BigFill {
    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        String queue = args[1];
        long n = Long.parseLong(args[2]);
        String account = "000000000000";
        RocksDbStore store = RocksDbStore.open(dir, Durability.BATCH);
        long now = System.currentTimeMillis();
        QueueEngine engine = new QueueEngine(store, "us-east-1", now, Long.MAX_VALUE);
        QueueRef ref = new QueueRef(account, queue);
        if (engine.listQueues(account, queue, null, null).queues().stream().noneMatch(q -> q.name().equals(queue))) {
            engine.apply(new Command.CreateQueue(new CreateQueue(account, null, queue, AttributeUpdate.of(Map.of()), null, now))).durable().written().join();
        }
        // bodies as the bench's preload writes them: "seq:group:groupSeq:sentNanos:" padded with 'x'
        String padding = "x".repeat(256);
        long start = System.nanoTime();
        CompletableFuture<Void> last = CompletableFuture.completedFuture(null);
        long sent = 0;
        long id = 0;
        while (sent < n) {
            List<SendMessage> batch = new ArrayList<>(10);
            for (int i = 0; i < 10 && sent + i < n; i++) {
                id++;
                String head = id + ":0:" + id + ":" + System.nanoTime() + ":";
                String body = head + padding.substring(head.length());
                batch.add(new SendMessage(body, null, null, null, null, null, account,
                        String.format("%08x-0000-4000-8000-%012x", id >>> 48, id & 0xffffffffffffL)));
            }
            now = Math.max(now, System.currentTimeMillis());
            last = engine.apply(new Command.SendMessageBatch(ref, batch, now)).durable().written();
            sent += batch.size();
            if (sent % 100_000 == 0) {
                last.join(); // bound what waits for the store
            }
            if (sent % 10_000_000 == 0) {
                System.out.printf("%,d sent, %.0f msgs/s%n", sent, sent / ((System.nanoTime() - start) / 1e9));
            }
        }
        last.join();
        double s = (System.nanoTime() - start) / 1e9;
        System.out.printf("filled %,d messages into %s/%s in %.1f s (%.0f msgs/s)%n", sent, dir, queue, s, sent / s);
        store.close();
    }
}
