package io.hikyaku.servicelog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hikyaku.engine.store.ForwardingStore;
import io.hikyaku.engine.store.Keyspace;
import io.hikyaku.engine.store.MemoryStore;
import io.hikyaku.engine.store.StoreBatch;
import io.hikyaku.engine.store.StoreException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** The service log over a store (cluster mode's: the replicated one): keys, order, continuation, failures. */
class StoreServiceLogTest {

    private final MemoryStore store = new MemoryStore();

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static List<String> texts(List<byte[]> records) {
        return records.stream().map(r -> new String(r, StandardCharsets.UTF_8)).toList();
    }

    @Test
    void recordsAreMetaKeysInAppendOrderAndAReplayContinuesAfterTheLast() throws IOException {
        StoreServiceLog sns = new StoreServiceLog(store, "sns", 1000);
        assertThat(sns.replay()).isEmpty();
        List<String> expected = new ArrayList<>();
        for (int i = 1; i <= 12; i++) { // past 9 and 10: key order must stay append order
            sns.append(b("r" + i));
            expected.add("r" + i);
        }
        sns.appendAll(List.of(b("x"), b("y")));
        expected.addAll(List.of("x", "y"));
        assertThat(store.get(Keyspace.META, b("hikyaku.svc/sns/00000000000000000001"))).isEqualTo(b("r1"));
        assertThat(store.get(Keyspace.META, b("hikyaku.svc/sns/00000000000000000014"))).isEqualTo(b("y"));

        StoreServiceLog again = new StoreServiceLog(store, "sns", 1000); // a new leader
        assertThat(texts(again.replay())).containsExactlyElementsOf(expected);
        again.append(b("z"));
        assertThat(store.get(Keyspace.META, b("hikyaku.svc/sns/00000000000000000015"))).isEqualTo(b("z"));
    }

    @Test
    void servicesDoNotSeeEachOthersRecordsNorTheEnginesMetaKeys() throws IOException {
        store.write(new StoreBatch().put(Keyspace.META, b("applied-at"), b("engine's"))).join();
        StoreServiceLog kms = new StoreServiceLog(store, "kms", 1000);
        StoreServiceLog scheduler = new StoreServiceLog(store, "scheduler", 1000);
        kms.replay();
        scheduler.replay();
        kms.append(b("key"));
        scheduler.append(b("schedule"));
        assertThat(texts(new StoreServiceLog(store, "kms", 1000).replay())).containsExactly("key");
        assertThat(texts(new StoreServiceLog(store, "scheduler", 1000).replay())).containsExactly("schedule");
        assertThatThrownBy(() -> new StoreServiceLog(store, "a/b", 1000)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aFailedWriteIsAnErrorAndTheLogMustBeReplayedBeforeTheNextAppend() throws IOException {
        boolean[] failing = {true};
        ForwardingStore flaky = new ForwardingStore() {
            @Override
            protected io.hikyaku.engine.store.Store delegate() {
                return store;
            }

            @Override
            public CompletableFuture<Void> write(StoreBatch batch) {
                return failing[0] ? CompletableFuture.failedFuture(new StoreException("not the cluster leader"))
                        : super.write(batch);
            }
        };
        StoreServiceLog log = new StoreServiceLog(flaky, "cloudwatch-alarms", 1000);
        log.replay();
        assertThatThrownBy(() -> log.append(b("lost"))).isInstanceOf(IOException.class).hasMessageContaining("not the cluster leader");
        failing[0] = false;
        assertThatThrownBy(() -> log.append(b("too soon"))).isInstanceOf(IOException.class).hasMessageContaining("replay");
        assertThat(log.replay()).isEmpty();
        log.append(b("kept"));
        assertThat(texts(log.replay())).containsExactly("kept");
    }

    @Test
    void anAppendThatIsNeverCommittedTimesOut() throws IOException {
        ForwardingStore stuck = new ForwardingStore() {
            @Override
            protected io.hikyaku.engine.store.Store delegate() {
                return store;
            }

            @Override
            public CompletableFuture<Void> write(StoreBatch batch) {
                return new CompletableFuture<>();
            }
        };
        StoreServiceLog log = new StoreServiceLog(stuck, "sns", 50);
        log.replay();
        assertThatThrownBy(() -> log.append(b("r"))).isInstanceOf(IOException.class).hasMessageContaining("not committed within 50 ms");
    }
}
