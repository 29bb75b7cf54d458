package io.hikyaku.cluster;

import io.hikyaku.engine.store.StoreException;
import io.hikyaku.store.rocksdb.Durability;
import io.hikyaku.store.rocksdb.RocksDbStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Where a cluster node keeps its replica of the store, so that the whole store can be replaced by a
 * snapshot (a RocksDB checkpoint) and a crash at any moment leaves one complete store in use:
 *
 * <pre>
 * &lt;data&gt;/replica/CURRENT        the name of the store in use ("store-7"), replaced atomically
 * &lt;data&gt;/replica/store-&lt;n&gt;/      a RocksDB store (opened with Durability.NONE: the Raft log is the record)
 * &lt;data&gt;/replica/incoming-&lt;n&gt;/   a snapshot being copied in (deleted at start if CURRENT does not name it)
 * </pre>
 *
 * <p>Replacing: the checkpoint is copied into {@code incoming-<n+1>} (immutable table files hard-linked,
 * the rest copied) and fsynced, renamed to {@code store-<n+1>}, the old store is closed, CURRENT is
 * rewritten (temp file, fsync, rename, fsync of the directory), the new store is opened and the old
 * one deleted. Before the rename of CURRENT the old store is the replica; after it, the new one.
 * At open every directory CURRENT does not name is a leftover of an interrupted replacement and is deleted.
 */
public final class ReplicaDirectory implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ReplicaDirectory.class);
    static final String CURRENT = "CURRENT";
    private static final String STORE = "store-";
    private static final String INCOMING = "incoming-";

    private final Path dir;
    private final Durability durability;
    private volatile RocksDbStore store;
    private int generation;

    private ReplicaDirectory(Path dir, Durability durability, RocksDbStore store, int generation) {
        this.dir = dir;
        this.durability = durability;
        this.store = store;
        this.generation = generation;
    }

    /**
     * Opens (or creates) the replica under {@code dir} with {@link Durability#NONE}. A store of the
     * first cluster slice, kept directly in {@code legacyStore} (the data directory), is checkpointed
     * into the replica once (hard links; the old files are left in place, unused).
     */
    public static ReplicaDirectory open(Path dir, Path legacyStore) {
        return open(dir, legacyStore, Durability.NONE);
    }

    static ReplicaDirectory open(Path dir, Path legacyStore, Durability durability) {
        try {
            Files.createDirectories(dir);
            Path current = dir.resolve(CURRENT);
            String name;
            if (Files.isRegularFile(current)) {
                name = Files.readString(current, StandardCharsets.US_ASCII).strip();
                if (!name.startsWith(STORE) || !Files.isDirectory(dir.resolve(name))) {
                    throw new StoreException("replica directory " + dir + ": CURRENT names " + name
                            + ", which is not a store here (fix or empty the directory; the node then catches up from the others)");
                }
            } else {
                name = STORE + 1;
                deleteRecursively(dir.resolve(name));
                if (legacyStore != null && Files.isRegularFile(legacyStore.resolve("FORMAT"))) {
                    LOG.info("moving the cluster store of {} into {} (a checkpoint: hard links)", legacyStore, dir.resolve(name));
                    RocksDbStore.backup(legacyStore, dir.resolve(name));
                }
                writeCurrent(dir, name);
            }
            int generation = Integer.parseInt(name.substring(STORE.length()));
            // open (and so lock against another process) before anything is deleted
            RocksDbStore store = RocksDbStore.open(dir.resolve(name), durability);
            try {
                removeLeftovers(dir, name);
            } catch (IOException e) {
                store.close();
                throw e;
            }
            return new ReplicaDirectory(dir, durability, store, generation);
        } catch (IOException | NumberFormatException e) {
            throw new StoreException("cannot open the replica directory " + dir + ": " + e, e);
        }
    }

    /** The store in use (changes when a snapshot replaces it). */
    public RocksDbStore current() {
        return store;
    }

    /** An online backup of the store in use (a checkpoint into {@code target}, which must not exist). */
    public void checkpoint(Path target) {
        store.checkpoint(target);
    }

    Path path() {
        return dir;
    }

    /**
     * Replaces the store by the checkpoint in {@code checkpoint} (left untouched; {@code .md5} files
     * Ratis wrote beside the received files are not copied) and returns the new store, open. The
     * caller makes sure nothing writes meanwhile; readers of the old store get "closed" errors.
     */
    synchronized RocksDbStore replaceWith(Path checkpoint) throws IOException {
        int next = generation + 1;
        Path incoming = dir.resolve(INCOMING + next);
        Path target = dir.resolve(STORE + next);
        deleteRecursively(incoming);
        deleteRecursively(target);
        copyTree(checkpoint, incoming);
        Files.move(incoming, target, StandardCopyOption.ATOMIC_MOVE);
        fsyncDirectory(dir);
        RocksDbStore old = store;
        old.close();
        writeCurrent(dir, STORE + next);
        RocksDbStore opened;
        try {
            opened = RocksDbStore.open(target, durability);
        } catch (RuntimeException e) {
            // CURRENT names a store that does not open: fail-stop; a restart tries again or the operator empties the node
            throw new IOException("the snapshot copied to " + target + " does not open as a store: " + e.getMessage(), e);
        }
        store = opened;
        Path oldDir = dir.resolve(STORE + generation);
        generation = next;
        deleteRecursively(oldDir);
        LOG.info("replica replaced by the snapshot in {} (now {})", checkpoint, target);
        return opened;
    }

    @Override
    public void close() {
        store.close();
    }

    private static void writeCurrent(Path dir, String name) throws IOException {
        Path tmp = dir.resolve(CURRENT + ".tmp");
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            ch.write(java.nio.ByteBuffer.wrap((name + "\n").getBytes(StandardCharsets.US_ASCII)));
            ch.force(true);
        }
        Files.move(tmp, dir.resolve(CURRENT), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        fsyncDirectory(dir);
    }

    private static void removeLeftovers(Path dir, String inUse) throws IOException {
        try (Stream<Path> entries = Files.list(dir)) {
            for (Path p : entries.toList()) {
                String n = p.getFileName().toString();
                if ((n.startsWith(STORE) || n.startsWith(INCOMING)) && !n.equals(inUse)) {
                    LOG.info("removing {}: a leftover of an interrupted store replacement", p);
                    deleteRecursively(p);
                }
            }
        }
    }

    /** Copies a directory tree: table files (immutable in RocksDB) are hard-linked when possible; every file fsynced. */
    static void copyTree(Path from, Path to) throws IOException {
        List<Path> all;
        try (Stream<Path> walk = Files.walk(from)) {
            all = walk.toList();
        }
        for (Path src : all) {
            Path dst = to.resolve(from.relativize(src).toString());
            String n = src.getFileName().toString();
            if (Files.isDirectory(src)) {
                Files.createDirectories(dst);
                continue;
            }
            if (n.endsWith(".md5") || n.equals("hikyaku.lock")) {
                continue;
            }
            boolean linked = false;
            if (n.endsWith(".sst")) {
                try {
                    Files.createLink(dst, src);
                    linked = true;
                } catch (FileSystemException | UnsupportedOperationException e) {
                    linked = false; // another file system: copy
                }
            }
            if (!linked) {
                Files.copy(src, dst, StandardCopyOption.COPY_ATTRIBUTES);
            }
            try (FileChannel ch = FileChannel.open(dst, StandardOpenOption.WRITE)) {
                ch.force(true);
            }
        }
        for (Path src : all) {
            if (Files.isDirectory(src)) {
                fsyncDirectory(to.resolve(from.relativize(src).toString()));
            }
        }
    }

    static void fsyncDirectory(Path dir) throws IOException {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException e) {
            // some file systems refuse to open directories for fsync; the renames are still ordered
            LOG.debug("fsync of directory {} failed: {}", dir, e.toString());
        }
    }

    static void deleteRecursively(Path p) throws IOException {
        if (!Files.exists(p)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(p)) {
            for (Path q : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(q);
            }
        }
    }
}
