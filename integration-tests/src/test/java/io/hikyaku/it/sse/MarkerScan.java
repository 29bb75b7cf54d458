package io.hikyaku.it.sse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** The raw-bytes scan of the encryption-at-rest tests: which files under some directories hold a marker string. */
final class MarkerScan {

    private MarkerScan() {}

    /** Every regular file under {@code roots} that holds {@code marker}; each file read is added to {@code scanned}. */
    static List<Path> filesHolding(String marker, List<Path> roots, List<Path> scanned) throws IOException {
        byte[] needle = marker.getBytes(StandardCharsets.UTF_8);
        List<Path> found = new ArrayList<>();
        for (Path root : roots) {
            try (Stream<Path> files = Files.walk(root)) {
                for (Path f : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
                    scanned.add(f);
                    if (contains(Files.readAllBytes(f), needle)) {
                        found.add(f);
                    }
                }
            }
        }
        return found;
    }

    static boolean contains(byte[] hay, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= hay.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (hay[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }
}
