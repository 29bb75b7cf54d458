package io.hikyaku.simulation;

import io.hikyaku.engine.store.ForwardingStore;
import io.hikyaku.engine.store.MemoryStore;
import io.hikyaku.engine.store.Store;
import io.hikyaku.journal.JournalReplay;
import io.hikyaku.store.rocksdb.Durability;
import io.hikyaku.store.rocksdb.RocksDbStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seeded simulation of the real engine against the model of SQS semantics ({@link Simulation}).
 * Every seed runs twice and must give the same digest (determinism). A failure names its seed and
 * the command that replays exactly that run.
 *
 * <p>{@code -Dsim.seed=S} (first seed, default 1), {@code -Dsim.seeds=N} (default 1000),
 * {@code -Dsim.steps=K} (steps per run, default 100), {@code -Dsim.rocksdb.seeds=N} (seeds also run
 * over RocksDB, default 12), {@code -Dsim.journal.seeds=N} (seeds whose journal is replayed, default 200).
 * A failing seed leaves its journal in {@code target/simulation-journals/}.
 */
class SimulationTest {

    private static final long FIRST = Long.getLong("sim.seed", 1);
    private static final int SEEDS = Integer.getInteger("sim.seeds", 1000);
    private static final int STEPS = Integer.getInteger("sim.steps", 100);
    private static final int ROCKS_SEEDS = Integer.getInteger("sim.rocksdb.seeds", 12);
    private static final int JOURNAL_SEEDS = Integer.getInteger("sim.journal.seeds", 200);

    @Test
    void seedsOnMemoryStoreMatchTheModelAndReplayIdentically() {
        long started = System.nanoTime();
        long crashes = 0;
        long faults = 0;
        long delivered = 0;
        long moved = 0;
        long sent = 0;
        for (long seed = FIRST; seed < FIRST + SEEDS; seed++) {
            Simulation first = new Simulation(seed, STEPS, Simulation.Disk.memory());
            String digest = runOrFail(seed, first);
            String again = runOrFail(seed, new Simulation(seed, STEPS, Simulation.Disk.memory()));
            if (!digest.equals(again)) {
                throw new AssertionError("seed " + seed + " is not deterministic: digest " + digest + " then " + again
                        + "\nreplay: " + replay(seed));
            }
            Simulation.Stats s = first.stats();
            crashes += s.crashes();
            faults += s.faults();
            delivered += s.delivered();
            moved += s.moved();
            sent += s.sent();
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        System.out.printf("simulation: %d seeds from %d x %d steps, each run twice, in %.1f s (%.0f seeds/s): "
                        + "%d sent, %d delivered, %d moved to DLQs, %d crashes, %d store faults%n",
                SEEDS, FIRST, STEPS, seconds, SEEDS / seconds, sent, delivered, moved, crashes, faults);
        if (SEEDS >= 100 && (faults == 0 || crashes == 0 || moved == 0)) {
            throw new AssertionError("the workload injected no fault, crash or DLQ move: it checked too little");
        }
    }

    /** The same seeds over the real RocksDB store (crash = close and reopen): same checks, same digest as in memory. */
    @Test
    void seedsOnRocksDbMatchTheMemoryRun(@TempDir Path dir) throws IOException {
        for (long seed = FIRST; seed < FIRST + Math.min(ROCKS_SEEDS, SEEDS); seed++) {
            Path data = dir.resolve("seed-" + seed);
            String onRocks = runOrFail(seed, new Simulation(seed, STEPS, rocks(data)));
            String inMemory = runOrFail(seed, new Simulation(seed, STEPS, Simulation.Disk.memory()));
            if (!onRocks.equals(inMemory)) {
                throw new AssertionError("seed " + seed + ": RocksDB run digest " + onRocks + " differs from the in-memory run "
                        + inMemory + "\nreplay: " + replay(seed));
            }
            delete(data);
        }
    }

    private static Simulation.Disk rocks(Path data) {
        return new Simulation.Disk() {
            public Store open() {
                return RocksDbStore.open(data, Durability.NONE);
            }

            public Store reopen(Store crashed) {
                crashed.close(); // a process crash loses nothing RocksDB was given (NONE: in the OS cache)
                return open();
            }
        };
    }

    /**
     * Every seed's journal (its commands, loads and injected faults) replays, through the journal's
     * own replay ({@code hikyaku replay}'s), to the state the run ended in: the digest the run
     * recorded at its end. Over a non-ephemeral store in memory for every seed of the run, and over
     * RocksDB, the kind the journal names, for the first.
     */
    @Test
    void everySeedsJournalReplaysToTheStateItsRunEndedIn(@TempDir Path dir) throws IOException {
        int faulted = 0;
        for (long seed = FIRST; seed < FIRST + Math.min(JOURNAL_SEEDS, SEEDS); seed++) {
            Simulation sim = new Simulation(seed, STEPS, Simulation.Disk.memory());
            runOrFail(seed, sim);
            Path file = dir.resolve("seed-" + seed + ".journal");
            sim.journal().writeTo(file);
            JournalReplay.Outcome replayed = JournalReplay.replay(file, kind -> new DiskLikeMemoryStore());
            if (!replayed.matches() || replayed.commands() != sim.journal().commands()) {
                throw new AssertionError("seed " + seed + ": its journal (" + sim.journal().commands() + " commands, "
                        + replayed.loads() + " loads) replayed to " + replayed.digest() + ", the run ended at "
                        + replayed.recordedDigest() + " (" + replayed.mismatches() + " mismatches)\nreplay: " + replay(seed));
            }
            faulted += sim.stats().faults() > 0 ? 1 : 0;
            if (seed == FIRST) {
                Path rocks = dir.resolve("rocks-" + seed);
                Store[] opened = new Store[1];
                try {
                    String[] kind = new String[1];
                    JournalReplay.Outcome onRocks = JournalReplay.replay(file, k -> {
                        kind[0] = k;
                        return opened[0] = RocksDbStore.open(rocks, Durability.NONE);
                    });
                    if (!onRocks.matches() || !"rocksdb".equals(kind[0])) {
                        throw new AssertionError("seed " + seed + ": over RocksDB its journal replayed to " + onRocks.digest()
                                + ", the run ended at " + onRocks.recordedDigest());
                    }
                } finally {
                    if (opened[0] != null) {
                        opened[0].close();
                    }
                }
                delete(rocks);
            }
            Files.delete(file);
        }
        if (Math.min(JOURNAL_SEEDS, SEEDS) >= 20 && faulted == 0) {
            throw new AssertionError("no replayed seed had a store fault: the replay of faults went unchecked");
        }
    }

    /** A memory store that keeps its data as a disk store does (not ephemeral), as the simulated store says of itself. */
    private static final class DiskLikeMemoryStore extends ForwardingStore {
        private final MemoryStore memory = new MemoryStore();

        @Override
        protected Store delegate() {
            return memory;
        }

        @Override
        public boolean isEphemeral() {
            return false;
        }
    }

    /**
     * Runs {@code sim}; a failure names the seed and its replay command, and leaves the seed's
     * journal (up to the failing command) in {@code target/simulation-journals/}, which
     * {@code hikyaku replay --journal FILE} plays back.
     */
    private static String runOrFail(long seed, Simulation sim) {
        try {
            return sim.run();
        } catch (AssertionError | RuntimeException e) {
            throw new AssertionError("seed " + seed + " failed: " + e.getMessage() + "\nreplay: " + replay(seed)
                    + journalOf(seed, sim), e);
        }
    }

    private static String journalOf(long seed, Simulation sim) {
        try {
            Path dir = Path.of("target", "simulation-journals");
            Files.createDirectories(dir);
            Path file = dir.resolve("seed-" + seed + ".journal");
            sim.journal().writeTo(file);
            return "\njournal (" + sim.journal().commands() + " commands): " + file.toAbsolutePath()
                    + " (./hikyaku replay --journal " + file.toAbsolutePath() + ")";
        } catch (IOException | RuntimeException e) {
            return "\n(the journal could not be written: " + e + ")";
        }
    }

    static String replay(long seed) {
        return "mvn -o -B -pl simulation-tests -am verify -Dsim.seed=" + seed + " -Dsim.seeds=1"
                + (STEPS != 100 ? " -Dsim.steps=" + STEPS : "");
    }

    private static void delete(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
