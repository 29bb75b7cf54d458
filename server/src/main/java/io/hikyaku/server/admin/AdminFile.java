package io.hikyaku.server.admin;

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import java.util.Properties;

/**
 * {@code <data dir>/ADMIN}: how local tools reach the running server's admin endpoint. Written
 * (mode 0600, atomically) once the server serves, removed at a clean stop; a crash leaves it behind,
 * so readers check that {@code pid} is still alive.
 *
 * @param url   base URL on the loopback interface, e.g. {@code http://127.0.0.1:9324}
 * @param token secret that admin requests must carry in {@link AdminEndpoint#TOKEN_HEADER}
 * @param pid   the server's process id
 */
public record AdminFile(String url, String token, long pid) {

    public static final String NAME = "ADMIN";

    public static Path in(Path dataDir) {
        return dataDir.resolve(NAME);
    }

    /** Writes this file into {@code dataDir}, readable by the owner only. */
    public void write(Path dataDir) {
        Path file = in(dataDir);
        Path temp = dataDir.resolve(NAME + ".tmp");
        String text = "# Admin endpoint of the Hikyaku server running on this directory (removed at a clean stop)\n"
                + "url=" + url + "\ntoken=" + token + "\npid=" + pid + "\n";
        try {
            Files.deleteIfExists(temp);
            try {
                Files.createFile(temp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            } catch (UnsupportedOperationException notPosix) {
                Files.createFile(temp);
            }
            Files.writeString(temp, text, StandardCharsets.UTF_8);
            Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (FileAlreadyExistsException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + temp + " appeared while writing", e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    /** Removes the file if it still holds this server's token (never another server's). */
    public void remove(Path dataDir) {
        Optional<AdminFile> current = read(dataDir);
        if (current.isPresent() && current.get().token().equals(token)) {
            try {
                Files.deleteIfExists(in(dataDir));
            } catch (IOException ignored) {
                // a stale file is harmless: readers check the pid and fall back
            }
        }
    }

    /** The file in {@code dataDir}, or empty when there is none (or it is unreadable or incomplete). */
    public static Optional<AdminFile> read(Path dataDir) {
        Path file = in(dataDir);
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        try {
            Properties p = new Properties();
            p.load(new StringReader(Files.readString(file, StandardCharsets.UTF_8)));
            String url = p.getProperty("url");
            String token = p.getProperty("token");
            String pid = p.getProperty("pid");
            if (url == null || token == null || pid == null) {
                return Optional.empty();
            }
            return Optional.of(new AdminFile(url, token, Long.parseLong(pid.trim())));
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** True when the process that wrote the file still runs. */
    public boolean ownerAlive() {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }
}
