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
 * fails the build. And every flag the design documents (architecture.md, API.md, SERVER.md, STORAGE.md)
 * name is a flag of some hikyaku command.
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

    /** A flag as the design documents tick it: {@code `--engine-shards N`}, {@code `--auth sigv4`}. */
    private static final Pattern TICKED_FLAG = Pattern.compile("`--([a-z0-9-]+)");

    @Test
    void everyFlagTheDesignDocsNameIsAFlagOfSomeCommand() throws Exception {
        TreeSet<String> flags = new TreeSet<>(List.of("help", "version"));
        for (Subcommand c : List.of(new ServeCommand(Map.of()), new BackupCommand(Map.of()), new ReplayCommand(),
                new SelfCheckCommand(Map.of()), new NewKeyCommand(), new ClusterCommand())) {
            for (Option o : c.options().getOptions()) {
                flags.add(o.getLongOpt());
            }
        }
        Path root = readme().getParent();
        List<String> unknown = new ArrayList<>();
        int named = 0;
        for (String doc : List.of("docs/architecture.md", "api/API.md", "server/SERVER.md", "store-rocksdb/STORAGE.md")) {
            Matcher m = TICKED_FLAG.matcher(Files.readString(root.resolve(doc), StandardCharsets.UTF_8));
            while (m.find()) {
                named++;
                if (!flags.contains(m.group(1))) {
                    unknown.add(doc + ": --" + m.group(1));
                }
            }
        }
        assertThat(named).as("flags named in the design documents").isGreaterThan(20);
        assertThat(unknown).as("flags the design documents name that no hikyaku command has").isEmpty();
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
