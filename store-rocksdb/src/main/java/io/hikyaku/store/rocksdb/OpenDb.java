package io.hikyaku.store.rocksdb;

import io.hikyaku.engine.store.Keyspace;
import io.hikyaku.engine.store.StoreException;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompressionType;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.SstFileManager;
import org.rocksdb.Status;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** An open RocksDB with one column family per {@link Keyspace}, and the options it was opened with. */
final class OpenDb implements AutoCloseable {

    static {
        NativeLibrary.load(); // from a per-user cache: no /tmp copy per start (leaked on kill -9)
    }

    final RocksDB db;
    final Map<Keyspace, ColumnFamilyHandle> handles;
    /** The {@code default} column family: holds only the store's {@link BatchNumber}. */
    final ColumnFamilyHandle defaultFamily;
    final CompressionType compression;
    private final List<ColumnFamilyHandle> allHandles;
    private final Tuning tuning;
    /**
     * Whether every table's checksums were verified at open. Not when the tables hold more than
     * {@link #VERIFY_AT_OPEN_MAX_BYTES}: then the store verifies them in the background while it serves
     * ({@link TableVerifier}), so a big backlog does not make start-up slower.
     */
    boolean verifiedAtOpen;

    /**
     * Tables up to this size are verified before the store opens (~0.5 s on this kind of disk); above
     * it, verification would make start-up grow with the backlog (3 GB: 16-37 s measured).
     */
    static final long VERIFY_AT_OPEN_MAX_BYTES = 256L << 20;
    /** {@link #VERIFY_AT_OPEN_MAX_BYTES}, lowered by tests that exercise the background verification. */
    static volatile long verifyAtOpenMaxBytes = VERIFY_AT_OPEN_MAX_BYTES;

    private OpenDb(RocksDB db, Map<Keyspace, ColumnFamilyHandle> handles, ColumnFamilyHandle defaultFamily,
                   List<ColumnFamilyHandle> allHandles, Tuning tuning, CompressionType compression) {
        this.db = db;
        this.handles = handles;
        this.defaultFamily = defaultFamily;
        this.allHandles = allHandles;
        this.tuning = tuning;
        this.compression = compression;
    }

    /**
     * Opens (creating if needed) the database in {@code dir}. Refuses, without modifying anything,
     * a database that recovers to a state older than what was acknowledged as durable: one whose last
     * {@link BatchNumber} is below the {@link DurableWatermark}.
     */
    /** The live tables' total size on disk. */
    long tableBytes() {
        long total = 0;
        for (org.rocksdb.LiveFileMetaData f : db.getLiveFilesMetaData()) {
            total += f.size();
        }
        return total;
    }

    /** The live tables' paths. */
    List<Path> tablePaths() {
        List<Path> out = new java.util.ArrayList<>();
        for (org.rocksdb.LiveFileMetaData f : db.getLiveFilesMetaData()) {
            String name = f.fileName().startsWith("/") ? f.fileName().substring(1) : f.fileName();
            out.add(Path.of(f.path()).resolve(name));
        }
        return out;
    }

    static OpenDb open(Path dir, RocksDbStoreOptions options) {
        try {
            return open(dir, options, CompressionType.LZ4_COMPRESSION);
        } catch (StoreException e) {
            if (e.getMessage().contains("not linked with the binary")) {
                return open(dir, options, CompressionType.NO_COMPRESSION);
            }
            throw e;
        }
    }

    private static OpenDb open(Path dir, RocksDbStoreOptions options, CompressionType compression) {
        Tuning tuning;
        try {
            tuning = new Tuning(options, compression);
        } catch (RocksDBException e) {
            throw new StoreException("cannot configure RocksDB: " + e.getMessage(), e);
        }
        try {
            List<byte[]> existing = existingFamilies(dir);
            List<ColumnFamilyDescriptor> descriptors = descriptors(tuning, existing);
            long acknowledged = DurableWatermark.read(dir);
            if (!existing.isEmpty() && acknowledged > 0) {
                refuseIfBehind(dir, tuning, descriptors.subList(0, existing.size()), acknowledged);
            }
            List<ColumnFamilyHandle> all = new ArrayList<>();
            RocksDB db = RocksDB.open(tuning.dbOptions, dir.toString(), descriptors, all);
            Map<Keyspace, ColumnFamilyHandle> byKeyspace = new EnumMap<>(Keyspace.class);
            for (int i = 0; i < descriptors.size(); i++) {
                String name = new String(descriptors.get(i).getName(), StandardCharsets.UTF_8);
                for (Keyspace space : Keyspace.values()) {
                    if (space.name().equals(name)) {
                        byKeyspace.put(space, all.get(i));
                    }
                }
            }
            OpenDb open = new OpenDb(db, byKeyspace, defaultFamily(descriptors, all), all, tuning, compression);
            if (options.verifyChecksumsOnOpen() && open.tableBytes() <= verifyAtOpenMaxBytes) {
                try {
                    db.verifyChecksum();
                    open.verifiedAtOpen = true;
                } catch (RocksDBException e) {
                    open.close();
                    throw translate(dir, e);
                }
            }
            return open;
        } catch (RocksDBException e) {
            tuning.close();
            throw translate(dir, e);
        } catch (RuntimeException e) {
            tuning.close();
            throw e;
        }
    }

    /**
     * Recovers the database read-only (WAL replayed in memory, nothing written) and compares the
     * number of the last batch it holds with the durable watermark.
     */
    private static void refuseIfBehind(Path dir, Tuning tuning, List<ColumnFamilyDescriptor> descriptors,
                                       long acknowledged) throws RocksDBException {
        List<ColumnFamilyHandle> handles = new ArrayList<>();
        try (RocksDB readOnly = RocksDB.openReadOnly(tuning.dbOptions, dir.toString(), descriptors, handles)) {
            long recovered;
            try {
                recovered = BatchNumber.last(readOnly, defaultFamily(descriptors, handles));
            } finally {
                handles.forEach(ColumnFamilyHandle::close);
            }
            if (recovered < acknowledged) {
                throw new StoreException("data directory " + dir + " is damaged: it recovers only up to batch "
                        + recovered + " but batches up to " + acknowledged + " were acknowledged as durable "
                        + "(a log file is corrupted or missing). Refusing to start so that nothing is lost "
                        + "silently; the directory was not modified. Restore a backup or see STORAGE.md (recovery).");
            }
        }
    }

    private static ColumnFamilyHandle defaultFamily(List<ColumnFamilyDescriptor> descriptors,
                                                    List<ColumnFamilyHandle> handles) {
        for (int i = 0; i < descriptors.size(); i++) {
            if (Arrays.equals(descriptors.get(i).getName(), RocksDB.DEFAULT_COLUMN_FAMILY)) {
                return handles.get(i);
            }
        }
        throw new StoreException("RocksDB opened without its default column family"); // RocksDB requires it
    }

    /** Existing families first (in their stored order), then the missing keyspaces to create. */
    private static List<ColumnFamilyDescriptor> descriptors(Tuning tuning, List<byte[]> existing) {
        List<ColumnFamilyDescriptor> result = new ArrayList<>();
        List<byte[]> names = new ArrayList<>(existing);
        if (names.isEmpty()) {
            names.add(RocksDB.DEFAULT_COLUMN_FAMILY);
        }
        for (Keyspace space : Keyspace.values()) {
            byte[] name = space.name().getBytes(StandardCharsets.UTF_8);
            if (names.stream().noneMatch(n -> Arrays.equals(n, name))) {
                names.add(name);
            }
        }
        for (byte[] name : names) {
            result.add(new ColumnFamilyDescriptor(name, optionsFor(tuning, name)));
        }
        return result;
    }

    private static ColumnFamilyOptions optionsFor(Tuning tuning, byte[] name) {
        String text = new String(name, StandardCharsets.UTF_8);
        for (Keyspace space : Keyspace.values()) {
            if (space.name().equals(text)) {
                return tuning.families.get(space);
            }
        }
        return tuning.defaultFamily;
    }

    private static List<byte[]> existingFamilies(Path dir) throws RocksDBException {
        if (!Files.exists(dir.resolve("CURRENT"))) {
            return List.of();
        }
        try (Options probe = new Options()) {
            return RocksDB.listColumnFamilies(probe, dir.toString());
        }
    }

    static StoreException translate(Path dir, RocksDBException e) {
        Status status = e.getStatus();
        String message = e.getMessage();
        if (message != null && message.contains("lock")
                && (message.contains("Resource temporarily unavailable") || message.contains("lock hold"))) {
            return DataDirectory.inUse(dir);
        }
        if (status != null && status.getCode() == Status.Code.Corruption) {
            return new StoreException("data directory " + dir + " is corrupted (" + message + "). Refusing to "
                    + "start so that nothing is lost silently. Restore a backup or see STORAGE.md (recovery).", e);
        }
        return new StoreException("cannot open RocksDB store in " + dir + ": " + message, e);
    }

    /** The keyspaces' families and the default one (which holds the batch number). */
    List<ColumnFamilyHandle> storeFamilies() {
        List<ColumnFamilyHandle> families = new ArrayList<>(handles.values());
        families.add(defaultFamily);
        return families;
    }

    SstFileManager sstFileManager() {
        return tuning.sstFileManager;
    }

    @Override
    public void close() {
        for (ColumnFamilyHandle handle : allHandles) {
            handle.close();
        }
        db.close();
        tuning.close();
    }
}
