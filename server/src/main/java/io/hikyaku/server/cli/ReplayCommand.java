package io.hikyaku.server.cli;

import static io.hikyaku.server.cli.Flags.valued;

import io.hikyaku.engine.store.MemoryStore;
import io.hikyaku.engine.store.Store;
import io.hikyaku.journal.JournalReplay;
import io.hikyaku.store.rocksdb.Durability;
import io.hikyaku.store.rocksdb.RocksDbStore;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;

/**
 * {@code hikyaku replay --journal FILE}: applies a journal (written by {@code serve --journal}) to a
 * fresh engine over a store of the kind the server used (RocksDB in {@code --data-dir}, which must
 * be empty or absent, else in a temporary directory removed afterwards; or memory), prints the
 * state digest and compares it with each digest the server recorded at a stop and with
 * {@code --expect-digest}. Exit 0 when everything compared is equal, 1 when something differs.
 */
final class ReplayCommand implements Subcommand {

    private static final Options OPTIONS = Flags.of(
            Option.builder().longOpt("journal").hasArg().argName("FILE").required()
                    .desc("The journal to replay.").get(),
            valued("data-dir", "DIR", "Empty or new directory for the replayed RocksDB store (default: a temporary one, removed)."),
            valued("expect-digest", "HEX", "The digest the replayed state must have."));

    @Override
    public String name() {
        return "replay";
    }

    @Override
    public String summary() {
        return "Replay a command journal into a fresh engine and print (and check) the state digest.";
    }

    @Override
    public Options options() {
        return OPTIONS;
    }

    @Override
    public int run(Flags flags, PrintWriter out) throws IOException {
        Path journal = flags.path("journal");
        if (!Files.isRegularFile(journal)) {
            throw new IllegalStateException("journal " + journal + " does not exist");
        }
        Path given = flags.path("data-dir");
        if (given != null && Files.exists(given)) {
            try (Stream<Path> entries = Files.list(given)) {
                if (entries.findAny().isPresent()) {
                    throw new IllegalStateException("--data-dir " + given + " is not empty: replay needs a fresh store");
                }
            }
        }
        Path dir = given != null ? given : Files.createTempDirectory("hikyaku-replay-");
        Store[] opened = new Store[1];
        JournalReplay.Outcome o;
        try {
            o = JournalReplay.replay(journal, kind -> opened[0] = kind.equals("memory")
                    ? MemoryStore.forServing() : RocksDbStore.open(dir, Durability.NONE));
        } finally {
            if (opened[0] != null) {
                opened[0].close();
            }
            if (given == null) {
                deleteTree(dir);
            }
        }
        out.println("replayed " + o.commands() + " commands (" + o.loads() + " loads) from " + journal
                + (o.truncated() ? "; the journal ends in a frame cut short (ignored)" : ""));
        if (!o.startedEmpty()) {
            out.println("warning: the server's first start was on a store that held queues: the replay starts empty, so "
                    + "its state cannot match");
        }
        out.println("digest " + o.digest());
        boolean ok = o.mismatches() == 0;
        if (o.recordedDigest() != null) {
            out.println(o.mismatches() == 0 ? "matches the digest the server recorded at stop"
                    : "DIFFERS from the digest the server recorded at " + o.mismatches() + " stop(s); last recorded "
                    + o.recordedDigest());
        }
        String expected = flags.string("expect-digest");
        if (expected != null) {
            boolean same = expected.trim().equalsIgnoreCase(String.valueOf(o.digest()));
            out.println(same ? "matches --expect-digest" : "DIFFERS from --expect-digest " + expected);
            ok &= same;
        }
        return ok ? 0 : 1;
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
