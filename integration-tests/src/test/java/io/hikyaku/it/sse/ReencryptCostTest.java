package io.hikyaku.it.sse;

import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.engine.AttributeUpdate;
import io.hikyaku.engine.CreateQueue;
import io.hikyaku.engine.QueueEngine;
import io.hikyaku.engine.QueueRef;
import io.hikyaku.engine.SendMessage;
import io.hikyaku.engine.command.Command;
import io.hikyaku.server.cli.HikyakuCommand;
import io.hikyaku.store.rocksdb.Durability;
import io.hikyaku.store.rocksdb.RocksDbStore;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code hikyaku reencrypt} costs: a data directory with {@code -Dreencrypt.messages=N} plaintext messages of
 * {@code -Dreencrypt.bytes=B} bytes in one queue that then gets SSE-SQS, re-encrypted by the command; prints the
 * time and the rate. Skipped unless {@code reencrypt.messages} is set (a measurement, not a check):
 * {@code mvn -o -pl integration-tests -am test -Dtest=ReencryptCostTest -Dreencrypt.messages=20000
 * -Dsurefire.failIfNoSpecifiedTests=false}.
 */
class ReencryptCostTest {

    @TempDir
    Path dataDir;

    @Test
    void reencryptsABacklog() {
        String n = System.getProperty("reencrypt.messages");
        Assumptions.assumeTrue(n != null, "a measurement: set -Dreencrypt.messages");
        int messages = Integer.parseInt(n);
        int bytes = Integer.parseInt(System.getProperty("reencrypt.bytes", "1024"));
        String body = "x".repeat(bytes);
        long now = System.currentTimeMillis();
        try (RocksDbStore store = RocksDbStore.open(dataDir, Durability.NONE)) {
            QueueEngine engine = new QueueEngine(store, "us-east-1", now);
            QueueRef q = engine.apply(new Command.CreateQueue(new CreateQueue("000000000000", "us-east-1", "backlog",
                    AttributeUpdate.of(Map.of("SqsManagedSseEnabled", "false")), null, now))).value().ref();
            List<CompletableFuture<Void>> writes = new ArrayList<>();
            for (int i = 0; i < messages; i++) {
                writes.add(engine.apply(new Command.SendMessage(q, new SendMessage(body, null, null, null, null, null, null,
                        java.util.UUID.randomUUID().toString()), now)).written());
            }
            engine.apply(new Command.SetQueueAttributes(q, AttributeUpdate.of(Map.of("SqsManagedSseEnabled", "true")), now));
            CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new)).join();
        }
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        long began = System.nanoTime();
        int exit = HikyakuCommand.commandLine(Map.of(), new PrintWriter(out), new PrintWriter(err))
                .execute("reencrypt", "--data-dir", dataDir.toString());
        long millis = (System.nanoTime() - began) / 1_000_000;
        assertThat(exit).as(err.toString()).isZero();
        assertThat(out.toString()).contains(messages + " re-encrypted");
        System.out.printf("reencrypt: %d messages of %d bytes in %d ms (%.0f messages/s, including open, flush and compaction)%n",
                messages, bytes, millis, messages * 1000.0 / millis);
    }
}
