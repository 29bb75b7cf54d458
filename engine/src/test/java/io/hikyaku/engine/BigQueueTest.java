package io.hikyaku.engine;

import io.hikyaku.engine.command.Command;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Guards against accidental scans: receive / delete on a huge queue must stay fast. */
class BigQueueTest {

    private final EngineFixture f = new EngineFixture();

    @Test
    void standardQueueWith200kMessages() {
        QueueRef q = f.create("big");
        for (int i = 0; i < 200_000; i++) {
            String tenant = i % 3 == 0 ? null : "t" + (i % 50);
            f.engine.apply(new Command.SendMessage(q, new SendMessage("m" + i, null, null, null, tenant, null, "s", "id" + i), f.now)).durable();
        }
        long start = System.nanoTime();
        for (int i = 0; i < 2_000; i++) {
            List<ReceivedMessage> got = f.receive(q, 10, 30);
            assertThat(got).hasSize(10);
            for (ReceivedMessage m : got.subList(0, 5)) {
                f.delete(q, m);
            }
            f.advance(1);
        }
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertThat(millis).as("20k receives and 10k deletes took %d ms", millis).isLessThan(5_000);
        assertThat(f.counts(q)).isEqualTo(new QueueCounts(180_000, 10_000, 0));
    }

    @Test
    void fifoQueueWith50kMessagesInFewGroups() {
        QueueRef q = f.createFifo("big.fifo", "ContentBasedDeduplication", "true");
        for (int i = 0; i < 50_000; i++) {
            f.engine.apply(new Command.SendMessage(q, new SendMessage("m" + i, null, null, null, "g" + (i % 20), null, "s", "id" + i), f.now)).durable();
        }
        long start = System.nanoTime();
        int received = 0;
        for (int i = 0; i < 1_000; i++) {
            List<ReceivedMessage> got = f.receive(q, 10, 30);
            received += got.size();
            for (ReceivedMessage m : got) {
                f.delete(q, m);
            }
        }
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertThat(received).isEqualTo(10_000);
        assertThat(millis).as("1k FIFO receives took %d ms", millis).isLessThan(5_000);
    }
}
