package io.hikyaku.bench.stats;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.ZoneOffset;

/** Appends result lines to DIR/&lt;yyyy-mm-dd&gt;-&lt;scenario&gt;.txt. */
public final class ResultsFile {
    private ResultsFile() {
    }

    public static Path append(Path dir, ResultLine line) throws IOException {
        Files.createDirectories(dir);
        String date = line.time().atZone(ZoneOffset.UTC).toLocalDate().toString();
        Path file = dir.resolve(date + "-" + line.scenario() + ".txt");
        Files.writeString(file, line.format() + "\n", StandardCharsets.UTF_8,
                StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        return file;
    }
}
