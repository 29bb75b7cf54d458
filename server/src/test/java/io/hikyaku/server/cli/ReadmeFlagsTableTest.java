package io.hikyaku.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.commons.cli.Option;
import org.junit.jupiter.api.Test;

/**
 * A build check: README.md's `./hikyaku serve` flags table names exactly the flags `serve --help`
 * lists, each once, so a flag added without documentation (or documentation of a removed flag)
 * fails the build.
 */
class ReadmeFlagsTableTest {

    /** A table row: | `--flag` | `ENV` | ... */
    private static final Pattern ROW = Pattern.compile("^\\| `--([a-z0-9-]+)` \\|");

    @Test
    void theReadmeFlagsTableMatchesServeHelp() throws Exception {
        List<String> documented = documentedFlags();
        TreeSet<String> served = new TreeSet<>();
        for (Option o : new ServeCommand(Map.of()).options().getOptions()) {
            served.add(o.getLongOpt());
        }
        assertThat(documented).as("README flags table rows").doesNotHaveDuplicates();
        assertThat(new TreeSet<>(documented)).as("README flags table vs serve --help").isEqualTo(served);
    }

    private static List<String> documentedFlags() throws Exception {
        Path readme = readme();
        List<String> flags = new ArrayList<>();
        boolean inTable = false;
        for (String line : Files.readAllLines(readme, StandardCharsets.UTF_8)) {
            if (line.startsWith("| flag | env |")) {
                inTable = true;
                continue;
            }
            if (inTable && !line.startsWith("|")) {
                break;
            }
            Matcher m = ROW.matcher(line);
            if (inTable && m.find()) {
                flags.add(m.group(1));
            }
        }
        assertThat(flags).as("flags table found in " + readme).isNotEmpty();
        return flags;
    }

    /** README.md at the repository root: the test runs in server/ (Maven's module directory). */
    private static Path readme() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !(Files.exists(dir.resolve("README.md")) && Files.exists(dir.resolve("pom.xml")))) {
            dir = dir.getParent();
        }
        assertThat(dir).as("README.md above " + Path.of("").toAbsolutePath()).isNotNull();
        return dir.resolve("README.md");
    }
}
