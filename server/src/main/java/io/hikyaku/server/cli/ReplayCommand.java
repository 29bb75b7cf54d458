package io.hikyaku.server.cli;

import io.hikyaku.engine.store.OwnerOnly;
import static io.hikyaku.server.cli.Flags.valued;

import io.hikyaku.engine.EngineShard;
import io.hikyaku.engine.store.MemoryStore;
import io.hikyaku.engine.store.Store;
import io.hikyaku.journal.JournalFiles;
import io.hikyaku.journal.JournalReplay;
import io.hikyaku.store.rocksdb.Durability;
import io.hikyaku.store.rocksdb.RocksDbStore;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;

/**
 * {@code hikyaku replay --journal FILE}: applies a journal (written by {@code serve --journal}) to a
 * fresh engine over a store of the kind the server used (RocksDB in {@code --data-dir}, which must
 * be empty or absent, else in a temporary directory removed afterwards; or memory), prints the
 * state digest and compares it with each digest the server recorded at a stop and with
 * {@code --expect-digest}. Exit 0 when everything compared is equal, 1 when something differs.
 *
 * <p>A server with several engine shards wrote {@code FILE.shard-i-of-N} instead of FILE
 * ({@link JournalFiles}): then every shard's file is replayed into a store of its own (in
 * {@code --data-dir}/shard-i-of-N when given), one line each, and the exit is 0 only when every
 * shard matches the digest it recorded at stop. {@code --expect-digest} is refused then: there is
 * no one digest of several engines.
 */
final class ReplayCommand implements Subcommand {

    private static final Options OPTIONS = Flags.of(
            Option.builder().longOpt("journal").hasArg().argName("FILE").required()
                    .desc("The journal to replay (with engine shards: the FILE given to serve, whose FILE.shard-i-of-N are replayed).").get(),
            valued("data-dir", "DIR", "Empty or new directory for the replayed RocksDB store (default: a temporary one, removed)."),
            valued("expect-digest", "HEX", "The digest the replayed state must have (one engine's journal only)."));

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
        List<Path> files = JournalFiles.find(journal);
        String expected = flags.string("expect-digest");
        if (files.size() > 1 && expected != null) {
            throw new UsageException("--expect-digest compares one engine's digest; " + journal + " is the journal of "
                    + files.size() + " engine shards, each checked against the digest it recorded at stop");
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
        try {
            if (files.size() == 1) {
                return replayOne(files.get(0), dir, expected, out);
            }
            boolean ok = true;
            for (Path file : files) {
                EngineShard shard = JournalFiles.shardOf(file);
                // A store of its own per shard: see ENGINE.md "Journal" (shards)
                ok &= replayShard(file, shard, dir.resolve("shard-" + shard.index() + "-of-" + shard.count()), out);
            }
            out.println(ok ? "every shard matches the digest it recorded at stop"
                    : "NOT every shard matches the digest it recorded at stop");
            return ok ? 0 : 1;
        } finally {
            if (given == null) {
                deleteTree(dir);
            }
        }
    }

    /** One engine's journal (the server ran one shard): the replay as it always was. */
    private static int replayOne(Path journal, Path dir, String expected, PrintWriter out) throws IOException {
        JournalReplay.Outcome o = replay(journal, dir);
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
        if (expected != null) {
            boolean same = expected.trim().equalsIgnoreCase(String.valueOf(o.digest()));
            out.println(same ? "matches --expect-digest" : "DIFFERS from --expect-digest " + expected);
            ok &= same;
        }
        return ok ? 0 : 1;
    }

    /**
     * One shard's journal, into a fresh store of its own, as one line; true when the file is whole,
     * the shard's loads are the shard its file name says, and its replay matches every digest it
     * recorded (at least one).
     */
    private static boolean replayShard(Path file, EngineShard shard, Path dir, PrintWriter out) {
        String name = "shard " + shard.index() + " of " + shard.count();
        JournalReplay.Outcome o;
        try {
            OwnerOnly.createDirectories(dir);
            o = replay(file, dir);
        } catch (IOException | RuntimeException e) {
            out.println(name + ": cannot replay " + file + ": " + e.getMessage());
            return false;
        }
        String line = name + ": replayed " + o.commands() + " commands (" + o.loads() + " loads) from " + file
                + ", digest " + o.digest();
        boolean ok = false;
        if (o.truncated()) {
            line += ", but the file ends in a frame cut short (a crash while it was written): its last state was "
                    + "not recorded";
        } else if (!o.shard().equals(shard)) {
            line += ", but its loads say shard " + o.shard().index() + " of " + o.shard().count()
                    + ": the file was renamed";
        } else if (o.recordedDigest() == null) {
            line += ", no digest recorded (the server did not stop cleanly)";
        } else if (o.mismatches() > 0) {
            line += ", DIFFERS from the digest recorded at " + o.mismatches() + " stop(s); last recorded "
                    + o.recordedDigest();
        } else {
            line += ", matches the digest recorded at stop";
            ok = true;
        }
        out.println(line);
        if (!o.startedEmpty()) {
            out.println(name + ": warning: the server's first start was on a store that held this shard's queues: the "
                    + "replay starts empty, so its state cannot match");
        }
        return ok;
    }

    /** Replays {@code journal} into a store of the kind the server ran on, in {@code dir} for RocksDB. */
    private static JournalReplay.Outcome replay(Path journal, Path dir) throws IOException {
        Store[] opened = new Store[1];
        try {
            return JournalReplay.replay(journal, kind -> opened[0] = kind.equals("memory")
                    ? MemoryStore.forServing() : RocksDbStore.open(dir, Durability.NONE));
        } finally {
            if (opened[0] != null) {
                opened[0].close();
            }
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
