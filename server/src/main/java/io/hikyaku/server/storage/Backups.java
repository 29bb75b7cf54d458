package io.hikyaku.server.storage;

import java.nio.file.Path;

/** Takes a consistent copy of the live store while it keeps serving (a RocksDB checkpoint). */
@FunctionalInterface
public interface Backups {

    /** Writes the copy to {@code target}, which must be absolute and must not exist. */
    void checkpoint(Path target);
}
