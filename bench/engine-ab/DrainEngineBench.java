import io.hikyaku.engine.command.Command;
import io.hikyaku.engine.*;
import io.hikyaku.store.rocksdb.Durability;
import io.hikyaku.store.rocksdb.RocksDbStore;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.*;

/**
 * Engine-only drain of a stored backlog: opens a data directory (a copy of one filled by the bench's
 * preload), then receives 10 and deletes them in one batch, ticking whenever the engine asks, as the
 * server does; prints the engine's thread CPU per message after a warm-up (which also covers the
 * start-up's counting of the tail keys). Usage: DataDir QueueName WARMUP_MSGS MEASURED_MSGS
 */
public class DrainEngineBench {
    public static void main(String[] a) throws Exception {
        Path dir = Path.of(a[0]);
        QueueRef q = new QueueRef("000000000000", a[1]);
        int warm = Integer.parseInt(a[2]), measured = Integer.parseInt(a[3]);
        long now = System.currentTimeMillis();
        try (RocksDbStore store = RocksDbStore.open(dir, Durability.NONE)) {
            QueueEngine e = new QueueEngine(store, "us-east-1", now);
            var bean = ManagementFactory.getThreadMXBean();
            long t0 = 0, done = 0, nonce = 1, total = 0;
            while (total < warm + measured) {
                if (total >= warm && t0 == 0) {
                    t0 = bean.getCurrentThreadCpuTime();
                    done = 0;
                }
                now++;
                if (e.nextDeadline() <= now) {
                    e.tick(now);
                }
                var got = e.apply(new Command.ReceiveMessage(q, new ReceiveMessages(10, 30, null, nonce++, now))).durable().value();
                if (got.isEmpty()) {
                    throw new IllegalStateException("nothing to receive after " + total);
                }
                List<String> handles = new ArrayList<>();
                for (ReceivedMessage r : got) {
                    handles.add(r.receiptHandle());
                }
                e.apply(new Command.DeleteMessageBatch(q, handles, now)).durable();
                done += got.size();
                total += got.size();
            }
            long cpu = bean.getCurrentThreadCpuTime() - t0;
            System.out.printf("engine_cpu_ns_per_msg=%.1f received=%d%n", (double) cpu / done, done);
        }
    }
}
