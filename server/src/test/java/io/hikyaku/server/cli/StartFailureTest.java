package io.hikyaku.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.server.HikyakuServer;
import io.hikyaku.server.ServerConfig;
import io.hikyaku.server.admin.AdminFile;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bad conditions at start, through the real command line: one clear line on stderr and exit code 1. */
class StartFailureTest {

    @TempDir
    Path dir;

    record Outcome(int code, String out, String err) {}

    static Outcome run(String... args) {
        return runWith(Map.of(), args);
    }

    static Outcome runWith(Map<String, String> env, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = HikyakuCommand.commandLine(env, new PrintWriter(out, true), new PrintWriter(err, true)).execute(args);
        return new Outcome(code, out.toString(), err.toString());
    }

    static Outcome serve(Path dataDir) {
        return run("serve", "--port", "0", "--data-dir", dataDir.toString());
    }

    static void assertOneLineFailure(Outcome o, String expected) {
        assertThat(o.code()).as(o.err()).isEqualTo(1);
        assertThat(o.out()).isEmpty();
        assertThat(o.err()).startsWith("hikyaku: ").contains(expected).endsWith("\n");
        assertThat(o.err().strip()).doesNotContain("\n");
    }

    @Test
    void aDirectoryInUseByAnotherServerIsRefusedAndThatServerKeepsRunning() {
        Path data = dir.resolve("data");
        try (HikyakuServer running = HikyakuServer.start(ServerConfig.defaults().withPort(0).withDataDir(data))) {
            assertOneLineFailure(serve(data), "data directory " + data + " is in use by another Hikyaku process");
            assertThat(data.resolve("ADMIN")).exists(); // the refused start left the running server's files alone
            assertThat(running.port()).isPositive();
        }
    }

    @Test
    void aDataDirectoryThatIsAFileOrUnderAFileIsRefused() throws Exception {
        Path file = Files.writeString(dir.resolve("file"), "x");
        assertOneLineFailure(serve(file), "is not a directory");
        assertOneLineFailure(serve(file.resolve("data")), "cannot create data directory");
    }

    @Test
    void anUnwritableDataDirectoryIsRefused() throws Exception {
        // Root may write anywhere, so as root use a place where nobody can create directories.
        boolean root = "root".equals(System.getProperty("user.name"));
        Path data;
        if (root) {
            data = Path.of("/proc/hikyaku-test-" + ProcessHandle.current().pid());
        } else {
            data = Files.createDirectory(dir.resolve("ro"));
            assertThat(data.toFile().setWritable(false)).isTrue();
        }
        assertOneLineFailure(serve(data), root ? "cannot create data directory" : "is not writable");
    }

    @Test
    void aNewerFormatVersionIsRefusedAndLeftAlone() throws Exception {
        Path data = Files.createDirectory(dir.resolve("newer"));
        Files.writeString(data.resolve("FORMAT"), "hikyaku-rocksdb-format 99\n");
        assertOneLineFailure(serve(data), "uses storage format version 99, which is newer than this Hikyaku build understands");
        try (var files = Files.list(data)) { // only the (empty) lock file is added
            assertThat(files).containsOnly(data.resolve("FORMAT"), data.resolve("hikyaku.lock"));
        }
        assertThat(Files.readString(data.resolve("FORMAT"))).isEqualTo("hikyaku-rocksdb-format 99\n");
    }

    @Test
    void someoneElsesDirectoryIsNotAdopted() throws Exception {
        Path data = Files.createDirectory(dir.resolve("foreign"));
        Files.writeString(data.resolve("notes.txt"), "mine");
        assertOneLineFailure(serve(data), "is not empty and has no FORMAT file");
    }

    @Test
    void aPortInUseIsRefusedAndReleasesTheDataDirectory() throws Exception {
        Path data = dir.resolve("data");
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            Outcome o = run("serve", "--port", String.valueOf(taken.getLocalPort()), "--data-dir", data.toString());
            assertOneLineFailure(o, "cannot listen on 127.0.0.1:" + taken.getLocalPort());
            assertThat(data).as("found before a new data directory was made").doesNotExist();
        }
        try (HikyakuServer again = HikyakuServer.start(ServerConfig.defaults().withPort(0).withDataDir(data))) {
            assertThat(again.port()).isPositive(); // the failed start closed the store
        }
    }

    @Test
    void anInvalidSettingExitsWith2() {
        Outcome o = run("serve", "--port", "0", "--durability", "sometimes");
        assertThat(o.code()).isEqualTo(2);
        assertThat(o.err()).contains("sometimes");
    }

    @Test
    void backupOfADirectoryWithoutAStoreFailsClearly() {
        Outcome o = run("backup", "--data-dir", dir.resolve("nothing").toString(), "--to", dir.resolve("b").toString());
        assertOneLineFailure(o, "holds no Hikyaku store");
    }

    @Test
    void anUnresolvableHostIsNamedAsSuchBeforeADataDirectoryIsMade() {
        Path data = dir.resolve("data");
        Outcome o = run("serve", "--host", "no-such-host.invalid", "--port", "0", "--data-dir", data.toString());
        assertOneLineFailure(o, "host 'no-such-host.invalid' does not resolve to an address");
        assertThat(data).doesNotExist();
    }

    @Test
    void backupFindsTheDataDirectoryInHikyakuDataDir() throws Exception {
        Path data = dir.resolve("env-data");
        try (HikyakuServer running = HikyakuServer.start(ServerConfig.defaults().withPort(0).withDataDir(data))) {
            Outcome o = runWith(Map.of("HIKYAKU_DATA_DIR", data.toString()), "backup", "--to", dir.resolve("b").toString());
            assertThat(o.code()).as(o.err()).isZero();
            assertThat(o.out()).contains(data.toString()).contains("(online");
        }
        assertThat(dir.resolve("b").resolve("FORMAT")).exists();
    }

    @Test
    void onIpv6LoopbackTheAdminFileHoldsAnAddressTheServerListensOn() throws Exception {
        Path data = dir.resolve("v6");
        try (HikyakuServer running = HikyakuServer.start(ServerConfig.defaults().withHost("::1").withPort(0).withDataDir(data))) {
            AdminFile admin = AdminFile.read(data).orElseThrow();
            assertThat(admin.url()).isEqualTo("http://[::1]:" + running.port());
            // and the backup through it works (it is online, so the server really answered there)
            Outcome o = run("backup", "--data-dir", data.toString(), "--to", dir.resolve("b6").toString());
            assertThat(o.code()).as(o.err()).isZero();
            assertThat(o.out()).contains("(online");
        }
    }

    @Test
    void aBadQueueAtTheEndOfALargeConfigFileStopsTheStartNamingIt() throws Exception {
        StringBuilder yaml = new StringBuilder("queues:\n");
        for (int i = 0; i < 600; i++) {
            yaml.append("  - name: q-").append(i).append('\n');
        }
        yaml.append("  - name: zz-bad\n    attributes:\n      VisibilityTimeout: 99999\n");
        Path config = Files.writeString(dir.resolve("big.yaml"), yaml.toString());
        Outcome o = runWith(Map.of("HIKYAKU_CONFIG", config.toString()),
                "serve", "--port", "0", "--data-dir", dir.resolve("data").toString());
        assertOneLineFailure(o, "queue zz-bad: SetQueueAttributes failed: InvalidAttributeValue");
    }
}
