package io.hikyaku.cloudwatch;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** The directory fsync that makes a snapshot's rename durable. */
final class Snapshots {

    private Snapshots() {}

    static void syncDirectory(Path file) {
        try (FileChannel dir = FileChannel.open(file.toAbsolutePath().getParent(), StandardOpenOption.READ)) {
            dir.force(true);
        } catch (IOException ignored) {
            // Some file systems cannot fsync a directory; the rename is still atomic.
        }
    }
}
