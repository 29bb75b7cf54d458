import io.hikyaku.engine.command.Command;
import io.hikyaku.engine.*;
import io.hikyaku.engine.store.MemoryStore;
import java.lang.management.ManagementFactory;
import java.util.*;

/** Engine-only FIFO workload: 100 groups, backlog ~500, send 10 / receive 10 / delete 10; thread CPU per message. */
public class FifoEngineBench {
    public static void main(String[] a) throws Exception {
        int warm = Integer.parseInt(a[0]), measured = Integer.parseInt(a[1]);
        QueueEngine e = new QueueEngine(new MemoryStore(), "us-east-1", 1_000_000L);
        long now = 1_000_000L;
        QueueRef q = new QueueRef("000000000000", "b.fifo");
        e.apply(new Command.CreateQueue(new CreateQueue("000000000000", null, "b.fifo",
                AttributeUpdate.of(Map.of("FifoQueue", "true")), null, now))).durable();
        String body = "x".repeat(256);
        long seq = 0, nonce = 1;
        for (int i = 0; i < 500; i++, seq++) e.apply(new Command.SendMessage(q, msg(body, seq), now)).durable();
        var bean = ManagementFactory.getThreadMXBean();
        long t0 = 0, done = 0;
        for (long m = 0; m < warm + measured; m += 10) {
            if (m == warm) { t0 = bean.getCurrentThreadCpuTime(); done = 0; }
            now++;
            for (int j = 0; j < 10; j++, seq++) e.apply(new Command.SendMessage(q, msg(body, seq), now)).durable();
            var got = e.apply(new Command.ReceiveMessage(q, new ReceiveMessages(10, 30, null, nonce++, now))).durable().value();
            for (ReceivedMessage r : got) e.apply(new Command.DeleteMessage(q, r.receiptHandle(), now)).durable();
            done += got.size();
        }
        long cpu = bean.getCurrentThreadCpuTime() - t0;
        System.out.printf("engine_cpu_ns_per_msg=%.1f received=%d%n", (double) cpu / done, done);
    }
    static SendMessage msg(String body, long seq) {
        return new SendMessage(body, null, null, null, "g" + (seq % 100), "d" + seq, "000000000000", "id-" + seq);
    }
}
