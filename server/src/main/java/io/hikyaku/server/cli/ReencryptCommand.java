package io.hikyaku.server.cli;

import static io.hikyaku.server.cli.Flags.toggle;
import static io.hikyaku.server.cli.Flags.valued;

import io.hikyaku.api.SqsServices;
import io.hikyaku.api.sse.MessageEncryption;
import io.hikyaku.api.sse.QueueSse;
import io.hikyaku.engine.QueueEngine;
import io.hikyaku.engine.QueueInfo;
import io.hikyaku.engine.SealOutcome;
import io.hikyaku.engine.SendMessage;
import io.hikyaku.engine.StoredBodyPage;
import io.hikyaku.engine.command.Applied;
import io.hikyaku.engine.command.Command;
import io.hikyaku.engine.store.StoreException;
import io.hikyaku.kms.KmsService;
import io.hikyaku.protocol.ApiException;
import io.hikyaku.protocol.ErrorCatalogue;
import io.hikyaku.server.MemoryBudget;
import io.hikyaku.server.sse.MessageEncryptionWiring;
import io.hikyaku.store.rocksdb.Durability;
import io.hikyaku.store.rocksdb.RocksDbStore;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.commons.cli.Options;

/**
 * {@code hikyaku reencrypt}: encrypts at rest the messages a data directory holds in plain text because they were
 * sent before their queue had SSE. Offline: the store is opened here (refused while a server holds it), with the
 * key service of the same directory and master key as {@code serve}. For every queue with SSE-SQS or SSE-KMS, its
 * stored messages are read in pages and each plaintext one is sealed with the queue's current key as a send
 * would seal it, then applied as the engine's {@link Command.SealMessage} (its id, MD5s, sequence, receive state,
 * group and deduplication stay). A flush and compaction at the end takes the plaintext out of the RocksDB tables
 * and the WAL. A queue whose key cannot be used (disabled, pending deletion, not found) is skipped with a line
 * saying so, and the exit code is then 1. Queues without SSE are left as they are. Running it again seals 0.
 */
final class ReencryptCommand implements Subcommand {

    /** Messages read and sealed per page (fewer once they hold 8 MiB): bounded memory whatever the backlog. */
    static final int PAGE = 200;

    private static final Options OPTIONS = Flags.of(
            valued("data-dir", "DIR", "Data directory to re-encrypt, with no server running on it (default ./data; env HIKYAKU_DATA_DIR)."),
            valued("region", "REGION", "Region the server runs as, for the key service (default us-east-1; env HIKYAKU_REGION)."),
            toggle("dry-run", "Count what would be re-encrypted; change no message and use no key."));

    private final Map<String, String> env;

    ReencryptCommand(Map<String, String> env) {
        this.env = env;
    }

    @Override
    public String name() {
        return "reencrypt";
    }

    @Override
    public String summary() {
        return "Encrypt at rest the messages stored in plain text before their queue had SSE (server stopped).";
    }

    @Override
    public Options options() {
        return OPTIONS;
    }

    @Override
    public int run(Flags flags, PrintWriter out) {
        Path data = flags.path("data-dir", fromEnv("HIKYAKU_DATA_DIR", "data")).toAbsolutePath().normalize();
        String region = flags.string("region") != null ? flags.string("region") : fromEnv("HIKYAKU_REGION", "us-east-1").toString();
        boolean dryRun = flags.has("dry-run");
        if (!Files.isRegularFile(data.resolve("FORMAT"))) { // the store's format file: opening would make a new store
            throw new IllegalStateException("no Hikyaku data directory at " + data);
        }
        if (Files.isDirectory(data.resolve("raft"))) {
            throw new IllegalStateException(data + " is a cluster node's data directory: a node's store follows its Raft "
                    + "log, so it cannot be rewritten offline (and a cluster does not serve SSE yet); reencrypt works on a "
                    + "single node's data directory only");
        }
        RocksDbStore store;
        try {
            // no fsync per message: a run cut short is simply run again; the flush at the end makes it durable
            store = RocksDbStore.open(data, Durability.NONE);
        } catch (StoreException e) {
            if (!e.getMessage().contains("in use")) {
                throw e;
            }
            throw new IllegalStateException(e.getMessage() + ": reencrypt works offline only, stop the server first", e);
        }
        try (store) {
            Clock clock = Clock.systemUTC();
            QueueEngine engine = new QueueEngine(store, SqsServices.ENGINE_REGION, clock.millis(),
                    MemoryBudget.resolve(0), QueueEngine.DEFAULT_INDEX_WINDOW);
            List<QueueInfo> encrypted = new ArrayList<>();
            for (QueueInfo q : engine.queues()) {
                if (sseOf(engine, q).encrypted()) {
                    encrypted.add(q);
                } else {
                    out.println(q.arn() + ": SSE off, left as it is");
                }
            }
            if (dryRun) {
                for (QueueInfo q : encrypted) {
                    Counts c = walk(engine, q, null, clock);
                    out.printf(Locale.ROOT, "%s: %s, %d messages scanned, %d to re-encrypt, %d already sealed (dry run)%n",
                            q.arn(), mode(sseOf(engine, q)), c.scanned, c.plaintext, c.alreadySealed);
                }
                return 0;
            }
            if (encrypted.isEmpty()) {
                out.println("hikyaku: no queue of " + data + " has SSE: nothing to re-encrypt");
                return 0;
            }
            try (KmsService kms = KmsService.start(data, KmsService.masterKeyFileFromEnvironment(), region, clock)) {
                MessageEncryption encryption = MessageEncryptionWiring.of(kms, clock, null);
                return reencrypt(engine, store, encrypted, encryption, clock, out);
            }
        }
    }

    private int reencrypt(QueueEngine engine, RocksDbStore store, List<QueueInfo> queues, MessageEncryption encryption,
                          Clock clock, PrintWriter out) {
        long total = 0;
        int skipped = 0;
        for (QueueInfo q : queues) {
            QueueSse sse = sseOf(engine, q);
            Counts c;
            try {
                c = walk(engine, q, sealerOf(encryption, sse), clock);
            } catch (KeyRefused e) {
                c = e.counts;
                skipped++;
                ApiException why = e.cause;
                ErrorCatalogue.Entry wire = ErrorCatalogue.lookup(why.errorType());
                out.printf(Locale.ROOT, "%s: %s, SKIPPED after %d re-encrypted: %s: %s (make the key usable and run reencrypt again)%n",
                        q.arn(), mode(sse), c.sealed, wire == null ? why.errorType() : wire.queryCode(), why.getMessage());
                total += c.sealed;
                continue;
            }
            total += c.sealed;
            out.printf(Locale.ROOT, "%s: %s, %d messages scanned, %d re-encrypted, %d already sealed%s%n", q.arn(), mode(sse),
                    c.scanned, c.sealed, c.alreadySealed, c.gone > 0 ? ", " + c.gone + " gone meanwhile" : "");
        }
        if (total > 0) {
            store.flushAndCompact(); // the replaced plaintext leaves the tables and the WAL now, not at some compaction
        }
        out.println("hikyaku: re-encrypted " + total + " messages" + (skipped > 0 ? "; " + skipped
                + " queue(s) skipped because of their key" : ""));
        return skipped > 0 ? 1 : 0;
    }

    /** The queue's sealer; its key's state is checked here, as a send checks it. */
    private static MessageEncryption.Sealer sealerOf(MessageEncryption encryption, QueueSse sse) {
        try {
            return encryption.resealer(sse);
        } catch (ApiException refused) {
            throw new KeyRefused(refused, new Counts());
        }
    }

    /** One queue's stored messages, page by page; {@code sealer} null: count only. */
    private static Counts walk(QueueEngine engine, QueueInfo q, MessageEncryption.Sealer sealer, Clock clock) {
        Counts c = new Counts();
        long from = 1;
        while (from >= 0) {
            StoredBodyPage page = engine.storedBodies(q.ref(), from, PAGE);
            List<CompletableFuture<Void>> writes = new ArrayList<>();
            for (StoredBodyPage.Entry e : page.messages()) {
                c.scanned++;
                if (e.sealed()) {
                    c.alreadySealed++;
                    continue;
                }
                c.plaintext++;
                if (sealer == null) {
                    continue;
                }
                String sealed;
                try {
                    sealed = sealer.seal(new SendMessage(e.body(), e.attributes().isEmpty() ? null : e.attributes(), null,
                            null, null, null, null, e.messageId())).body();
                } catch (ApiException refused) {
                    throw new KeyRefused(refused, c);
                }
                long now = Math.max(clock.millis(), engine.appliedAt()); // commands are stamped in order
                Applied<SealOutcome> applied = engine.apply(new Command.SealMessage(q.ref(), e.seq(), e.messageId(), sealed, now));
                switch (applied.durable().value()) {
                    case SEALED -> c.sealed++;
                    case ALREADY_SEALED -> c.alreadySealed++;
                    case GONE -> c.gone++;
                }
                writes.add(applied.written());
            }
            CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new)).join();
            from = page.next();
        }
        return c;
    }

    private static QueueSse sseOf(QueueEngine engine, QueueInfo q) {
        return QueueSse.of(engine.readQueueAttributes(q.ref(), QueueSse.ATTRIBUTES));
    }

    private static String mode(QueueSse sse) {
        return sse.mode() == QueueSse.Mode.KMS ? "SSE-KMS (" + sse.kmsKeyId() + ")" : "SSE-SQS";
    }

    private Path fromEnv(String name, String absent) {
        String v = env.get(name);
        return Path.of(v == null || v.isEmpty() ? absent : v);
    }

    private static final class Counts {
        long scanned;
        long plaintext;
        long sealed;
        long alreadySealed;
        long gone;
    }

    /** The queue's key refused a seal (a {@code Kms*} error): the queue is skipped. */
    private static final class KeyRefused extends RuntimeException {
        final ApiException cause;
        final Counts counts;

        KeyRefused(ApiException cause, Counts counts) {
            super(cause.getMessage(), cause, false, false);
            this.cause = cause;
            this.counts = counts;
        }
    }
}
