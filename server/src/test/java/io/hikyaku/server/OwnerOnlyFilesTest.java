package io.hikyaku.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the real server writes is for its own user only: the data directory (whatever mode it had),
 * and the journal and CloudWatch snapshot files, which hold message bodies and every account's queue
 * names. Another local user reads no table file, since the directory shuts them out.
 */
class OwnerOnlyFilesTest {

    @TempDir
    Path dir;

    static String mode(Path p) throws Exception {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
    }

    @Test
    void theDataDirectoryAndTheFilesBesideItAreOwnerOnly() throws Exception {
        Path data = dir.resolve("data");
        Files.createDirectories(data);
        Files.setPosixFilePermissions(data, PosixFilePermissions.fromString("rwxr-xr-x")); // an operator's mkdir under umask 022
        Path journal = dir.resolve("commands.journal");
        ServerConfig config = ServerConfig.defaults().withPort(0).withDataDir(data).withJournal(journal);
        try (HikyakuServer server = HikyakuServer.start(config); JsonSqs sqs = new JsonSqs(server.port())) {
            String url = sqs.create("secrets", JsonSqs.input());
            sqs.call("SendMessage", JsonSqs.input().put("QueueUrl", url).put("MessageBody", "a message body nobody else may read"));
            assertThat(mode(data)).isEqualTo("rwx------");
            assertThat(mode(journal)).isEqualTo("rw-------");
        }
        assertThat(mode(data)).isEqualTo("rwx------");
        Path snapshot = data.resolve(io.hikyaku.cloudwatch.CloudWatch.FILE_NAME); // saved at the stop
        assertThat(snapshot).exists();
        assertThat(mode(snapshot)).isEqualTo("rw-------");
    }
}
