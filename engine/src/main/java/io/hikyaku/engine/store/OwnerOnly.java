package io.hikyaku.engine.store;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Set;

/**
 * Modes for what the server writes to disk: directories 0700, files 0600, so that another local user
 * reads no message body, mapping or metric, whatever the umask. Where the file system has no POSIX
 * permissions (Windows), nothing is set.
 */
public final class OwnerOnly {

    private static final boolean POSIX = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
    private static final Set<PosixFilePermission> FILE = PosixFilePermissions.fromString("rw-------");
    private static final Set<PosixFilePermission> DIRECTORY = PosixFilePermissions.fromString("rwx------");
    private static final FileAttribute<?>[] NONE = new FileAttribute<?>[0];
    private static final FileAttribute<?>[] FILE_ATTRIBUTE = POSIX ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(FILE)} : NONE;
    private static final FileAttribute<?>[] DIRECTORY_ATTRIBUTE =
            POSIX ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(DIRECTORY)} : NONE;

    private OwnerOnly() {}

    /** For {@code Files.createFile}/{@code FileChannel.open(..., CREATE, ...)}: mode 0600 on creation. */
    public static FileAttribute<?>[] file() {
        return FILE_ATTRIBUTE.clone();
    }

    /** Creates {@code dir} and its missing parents, each 0700; an existing {@code dir} is tightened. */
    public static void createDirectories(Path dir) throws IOException {
        Files.createDirectories(dir, DIRECTORY_ATTRIBUTE.clone());
        tighten(dir);
    }

    /**
     * Takes group and other permissions away from {@code path} (0700 for a directory, 0600 for a file).
     *
     * @return the permissions removed (empty when there were none, or without POSIX permissions)
     */
    public static Set<PosixFilePermission> tighten(Path path) throws IOException {
        if (!POSIX) {
            return Set.of();
        }
        Set<PosixFilePermission> now = Files.getPosixFilePermissions(path);
        Set<PosixFilePermission> wanted = Files.isDirectory(path) ? DIRECTORY : FILE;
        Set<PosixFilePermission> removed = EnumSet.noneOf(PosixFilePermission.class);
        for (PosixFilePermission p : now) {
            if (!wanted.contains(p)) {
                removed.add(p);
            }
        }
        if (!removed.isEmpty()) {
            Set<PosixFilePermission> kept = EnumSet.noneOf(PosixFilePermission.class);
            kept.addAll(now);
            kept.removeAll(removed); // the owner's own bits stay as they were
            Files.setPosixFilePermissions(path, kept);
        }
        return removed;
    }

    /** {@code rwxr-xr-x}-style text of {@code permissions}, for a log line. */
    public static String describe(Set<PosixFilePermission> permissions) {
        return PosixFilePermissions.toString(permissions);
    }
}
