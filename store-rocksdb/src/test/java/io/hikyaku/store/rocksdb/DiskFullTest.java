package io.hikyaku.store.rocksdb;

import io.hikyaku.engine.store.Keyspace;
import io.hikyaku.engine.store.StoreBatch;
import io.hikyaku.engine.store.StoreException;
import io.hikyaku.store.rocksdb.FillUntilFailure.Filled;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static io.hikyaku.store.rocksdb.FillUntilFailure.assertAcknowledged;
import static io.hikyaku.store.rocksdb.FillUntilFailure.assertRefusesWrites;
import static io.hikyaku.store.rocksdb.FillUntilFailure.fill;
import static io.hikyaku.store.rocksdb.FillUntilFailure.resumes;
import static io.hikyaku.store.rocksdb.StoreContractTest.b;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A real ENOSPC: the store lives on a 16 MiB tmpfs that we fill up. Needs root and mount(8); CI runs
 * as root, elsewhere this is skipped and {@link SpaceLimitTest} covers the same path with RocksDB's
 * own space limit.
 */
class DiskFullTest {

    private static final RocksDbStoreOptions OPTIONS = RocksDbStoreOptions.defaults().withWriteBuffers(256 * 1024, 1 << 20);

    @TempDir
    Path tmp;

    private Path mountPoint;

    @AfterEach
    void unmount() throws Exception {
        if (mountPoint != null) {
            run("umount", "-l", mountPoint.toString());
        }
    }

    private static boolean run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
    }

    /** Mounts the 16 MiB tmpfs (the test is skipped where that cannot be done); its mount point. */
    private Path mountSmallDisk() throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")), "needs root to mount a tmpfs");
        Path mnt = Files.createDirectory(tmp.resolve("mnt"));
        assumeTrue(run("mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", mnt.toString()), "mount -t tmpfs unavailable");
        mountPoint = mnt;
        return mnt;
    }

    private static byte[] value(int i) {
        byte[] v = new byte[8 * 1024];
        for (int j = 0; j < v.length; j++) {
            v[j] = (byte) (i * 31 + j * 7); // incompressible enough for LZ4
        }
        return v;
    }

    @Test
    void writesFailCleanlyWhenTheDiskIsFullAndResumeWhenSpaceReturns() throws Exception {
        Path mnt = mountSmallDisk();
        Path dir = mnt.resolve("data");
        Path filler = mnt.resolve("filler");
        Filled filled;
        try (RocksDbStore store = RocksDbStore.open(dir, OPTIONS)) {
            fillLeaving(filler, mnt, 1 << 20);
            filled = fill(store, 5_000, DiskFullTest::value);
            assertThat(filled.failure()).as("the disk never filled up").isInstanceOf(StoreException.class)
                    .hasMessageContaining("No space left on device");
            assertThat(filled.acknowledged()).isNotEmpty();
            assertAcknowledged(store, filled.acknowledged());

            Files.delete(filler);
            assertRefusesWrites(store);
            assertThat(resumes(store)).as("the store resumes once space is back").isTrue();
            store.write(new StoreBatch().put(Keyspace.META, b("after"), b("space"))).get(10, TimeUnit.SECONDS);
        }
        try (RocksDbStore store = RocksDbStore.open(dir, OPTIONS)) {
            assertAcknowledged(store, filled.acknowledged());
            assertThat(store.get(Keyspace.META, b("after"))).isEqualTo(b("space"));
        }
    }

    /**
     * A resume that has to reopen the database while the disk is still full fails (RocksDB cannot even
     * write its options file; simulated here, since closing the database frees space on this small disk);
     * the database then stays closed, and a later resume, once space is back, must try the reopen again
     * rather than refuse for good because the store is "being reopened".
     */
    @Test
    void aReopenThatFailedWhileFullIsTriedAgainOnceSpaceReturns() throws Exception {
        Path mnt = mountSmallDisk();
        Path filler = mnt.resolve("filler");
        try (RocksDbStore store = RocksDbStore.open(mnt.resolve("data"), OPTIONS)) {
            fillLeaving(filler, mnt, 1 << 20);
            Filled filled = fill(store, 5_000, DiskFullTest::value);
            assertThat(filled.failure()).as("the disk never filled up").isInstanceOf(StoreException.class);
            store.reopenOnNextResume();
            store.failNextReopen(); // what a full disk does to the reopen (seen: "Unable to persist Options file")
            assertThat(store.resume()).as("the reopen failed").isFalse();

            Files.delete(filler);
            assertThat(resumes(store)).as("the reopen is tried again once space is back").isTrue();
            store.write(new StoreBatch().put(Keyspace.META, b("after"), b("space"))).get(10, TimeUnit.SECONDS);
            assertAcknowledged(store, filled.acknowledged());
        }
    }

    private static void fillLeaving(Path filler, Path mnt, long leave) throws IOException {
        byte[] chunk = new byte[64 * 1024];
        try (OutputStream out = Files.newOutputStream(filler)) {
            while (Files.getFileStore(mnt).getUsableSpace() > leave + chunk.length) {
                out.write(chunk);
                out.flush();
            }
        }
    }
}
