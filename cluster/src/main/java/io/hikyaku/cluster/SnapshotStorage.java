package io.hikyaku.cluster;

import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.server.storage.FileInfo;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.statemachine.SnapshotInfo;
import org.apache.ratis.statemachine.SnapshotRetentionPolicy;
import org.apache.ratis.statemachine.StateMachineStorage;
import org.apache.ratis.statemachine.impl.FileListSnapshotInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The snapshots of a node, in Ratis' state machine directory ({@code <raft>/<group>/sm/}): each a
 * directory {@code snapshot.<term>_<index>/} holding a RocksDB checkpoint of the store as it was after
 * applying entry {@code index} (the store's META applied key says the same). A snapshot is made in
 * {@code .taking.<term>_<index>/} and renamed into place, so a directory of that name is complete.
 *
 * <p>The leader sends a snapshot as its files (Ratis' install-snapshot by chunks, paths relative to
 * this directory); the follower's Ratis writes them with a {@code .md5} file each into its temporary
 * directory, checks each digest and renames that directory to this one, so after an install this
 * directory holds exactly the received snapshot.
 */
final class SnapshotStorage implements StateMachineStorage {

    private static final Logger LOG = LoggerFactory.getLogger(SnapshotStorage.class);
    private static final Pattern NAME = Pattern.compile("snapshot\\.(\\d+)_(\\d+)");
    private static final String TAKING = ".taking.";

    private volatile File smDir;
    private volatile File tmpDir;
    private volatile Snapshot latest;

    /** One snapshot: its term and index, and its directory. */
    record Snapshot(TermIndex termIndex, Path dir, SnapshotInfo info) {}

    @Override
    public void init(RaftStorage storage) throws IOException {
        smDir = storage.getStorageDir().getStateMachineDir();
        tmpDir = storage.getStorageDir().getTmpDir();
        Files.createDirectories(smDir.toPath());
        refresh();
    }

    /** Re-reads the directory (after an installed snapshot replaced it). */
    Snapshot refresh() throws IOException {
        Snapshot found = null;
        try (Stream<Path> entries = Files.list(smDir.toPath())) {
            for (Path p : entries.toList()) {
                Matcher m = NAME.matcher(p.getFileName().toString());
                if (Files.isDirectory(p) && m.matches()) {
                    TermIndex ti = TermIndex.valueOf(Long.parseLong(m.group(1)), Long.parseLong(m.group(2)));
                    if (found == null || ti.getIndex() > found.termIndex().getIndex()) {
                        found = new Snapshot(ti, p, null);
                    }
                } else if (p.getFileName().toString().startsWith(TAKING)) {
                    ReplicaDirectory.deleteRecursively(p); // an interrupted snapshot
                }
            }
        }
        latest = found == null ? null : new Snapshot(found.termIndex(), found.dir(), describe(found));
        return latest;
    }

    private static SnapshotInfo describe(Snapshot s) throws IOException {
        List<FileInfo> files = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(s.dir())) {
            for (Path p : walk.sorted().toList()) {
                if (Files.isRegularFile(p) && !p.getFileName().toString().endsWith(".md5")) {
                    files.add(new FileInfo(p.toAbsolutePath(), null)); // the leader digests while it sends
                }
            }
        }
        return new FileListSnapshotInfo(files, s.termIndex());
    }

    /** The latest complete snapshot, or null. */
    Snapshot latest() {
        return latest;
    }

    /**
     * Takes a snapshot at {@code termIndex}: {@code checkpoint} writes the store's checkpoint into the
     * directory it is given (which does not exist yet); then the directory is renamed into place.
     */
    Snapshot take(TermIndex termIndex, java.util.function.Consumer<Path> checkpoint) throws IOException {
        String name = "snapshot." + termIndex.getTerm() + "_" + termIndex.getIndex();
        Path taking = smDir.toPath().resolve(TAKING + name);
        Path done = smDir.toPath().resolve(name);
        ReplicaDirectory.deleteRecursively(taking);
        if (Files.isDirectory(done)) {
            return refresh(); // already taken (a retried trigger)
        }
        checkpoint.accept(taking);
        Files.move(taking, done, StandardCopyOption.ATOMIC_MOVE);
        ReplicaDirectory.fsyncDirectory(smDir.toPath());
        return refresh();
    }

    @Override
    public SnapshotInfo getLatestSnapshot() {
        Snapshot s = latest;
        return s == null ? null : s.info();
    }

    @Override
    public void format() {
        // nothing: a new directory has no snapshot
    }

    /** Keeps the newest {@code policy.getNumSnapshotsRetained()} snapshots (at least 1). */
    @Override
    public void cleanupOldSnapshots(SnapshotRetentionPolicy policy) throws IOException {
        int keep = Math.max(1, policy == null ? 2 : policy.getNumSnapshotsRetained());
        List<Path> all = new ArrayList<>();
        try (Stream<Path> entries = Files.list(smDir.toPath())) {
            entries.filter(p -> Files.isDirectory(p) && NAME.matcher(p.getFileName().toString()).matches()).forEach(all::add);
        }
        all.sort(Comparator.comparingLong(SnapshotStorage::indexOf).reversed());
        for (Path old : all.subList(Math.min(keep, all.size()), all.size())) {
            LOG.info("removing old snapshot {}", old.getFileName());
            ReplicaDirectory.deleteRecursively(old);
        }
    }

    private static long indexOf(Path p) {
        Matcher m = NAME.matcher(p.getFileName().toString());
        return m.matches() ? Long.parseLong(m.group(2)) : -1;
    }

    @Override
    public File getSnapshotDir() {
        return smDir;
    }

    @Override
    public File getTmpDir() {
        return tmpDir;
    }
}
