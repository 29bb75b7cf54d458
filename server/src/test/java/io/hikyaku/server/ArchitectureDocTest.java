package io.hikyaku.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A build check that docs/architecture.md tells the truth about the modules: every module with
 * production code is named there, and each "`x` depends on ..." sentence names exactly the project
 * modules x's pom depends on (every direct one named; every one named reachable through the poms), so
 * a dependency added or removed without the doc fails the build. Also: every thread it (and the api and
 * server docs) names, {@code `hikyaku-...`}, is a name some main source gives a thread.
 */
class ArchitectureDocTest {

    private static final Pattern MODULE = Pattern.compile("<module>([^<]+)</module>");
    private static final Pattern DEPENDENCY = Pattern.compile("<dependency>(.*?)</dependency>", Pattern.DOTALL);
    private static final Pattern ARTIFACT = Pattern.compile("<artifactId>hikyaku-([^<]+)</artifactId>");
    private static final Pattern TEST_SCOPE = Pattern.compile("<scope>test</scope>");
    /** "`name` depends on ..." up to the end of the clause (a colon, semicolon or full stop). */
    private static final Pattern DEPENDS = Pattern.compile(
            "`([a-z0-9-]+)` depends on (.*?)(?=[:;]|\\.\\s|\\.$)", Pattern.DOTALL);
    private static final Pattern NO_DEPENDENCIES = Pattern.compile("`([a-z0-9-]+)` has no dependencies");
    private static final Pattern TICKED = Pattern.compile("`([a-z0-9-]+)`");

    @Test
    void everyModuleWithCodeIsNamed() throws IOException {
        String doc = architecture();
        List<String> missing = new ArrayList<>();
        for (String module : productionModules()) {
            if (!doc.contains("`" + module + "`") && !doc.contains(module + "/")) {
                missing.add(module);
            }
        }
        assertThat(missing).as("modules with production code that docs/architecture.md never names").isEmpty();
    }

    @Test
    void everyDependsOnSentenceMatchesThePoms() throws IOException {
        Map<String, Set<String>> direct = new LinkedHashMap<>();
        for (String module : modules()) {
            direct.put(module, directDependencies(module));
        }
        String doc = architecture().replaceAll("\\s+", " ");
        List<String> wrong = new ArrayList<>();
        int sentences = 0;
        Matcher m = DEPENDS.matcher(doc);
        while (m.find()) {
            String module = m.group(1);
            if (!direct.containsKey(module)) {
                wrong.add("`" + module + "` is not a module");
                continue;
            }
            sentences++;
            Set<String> named = new TreeSet<>();
            Matcher t = TICKED.matcher(m.group(2));
            while (t.find()) {
                if (direct.containsKey(t.group(1))) {
                    named.add(t.group(1));
                }
            }
            Set<String> reachable = reachable(module, direct);
            for (String d : direct.get(module)) {
                if (!named.contains(d)) {
                    wrong.add("`" + module + "` depends on `" + d + "` (pom), which the doc does not name");
                }
            }
            for (String n : named) {
                if (!reachable.contains(n)) {
                    wrong.add("`" + module + "` is said to depend on `" + n + "`, which its pom does not reach");
                }
            }
        }
        Matcher none = NO_DEPENDENCIES.matcher(doc);
        while (none.find()) {
            sentences++;
            Set<String> deps = direct.getOrDefault(none.group(1), Set.of("(not a module)"));
            if (!deps.isEmpty()) {
                wrong.add("`" + none.group(1) + "` is said to have no dependencies but has " + deps);
            }
        }
        assertThat(sentences).as("dependency sentences found in docs/architecture.md").isGreaterThan(10);
        assertThat(wrong).as("docs/architecture.md vs the poms").isEmpty();
    }

    /** A thread name as the docs tick it: {@code `hikyaku-engine[-i]`}, {@code `hikyaku-timers-i`}, {@code `sns-http-retry`}. */
    private static final Pattern THREAD = Pattern.compile("`((?:hikyaku|sns)-[a-z]+(?:-[a-z]+)*?)(?:-i|\\[-i])?`");

    @Test
    void everyThreadTheDocsNameIsNamedSoInTheCode() throws IOException {
        String code = mainSources();
        List<String> artifacts = modules().stream().map(m -> "hikyaku-" + m).toList(); // `hikyaku-server` is a jar
        List<String> docs = List.of("docs/architecture.md", "api/API.md", "server/SERVER.md");
        Set<String> named = new TreeSet<>();
        List<String> missing = new ArrayList<>();
        for (String doc : docs) {
            Matcher t = THREAD.matcher(Files.readString(root().resolve(doc), StandardCharsets.UTF_8));
            while (t.find()) {
                if (artifacts.contains(t.group(1)) && !code.contains("\"" + t.group(1))) {
                    continue;
                }
                named.add(t.group(1));
                if (!code.contains("\"" + t.group(1))) {
                    missing.add(doc + ": `" + t.group(1) + "`");
                }
            }
        }
        assertThat(named).as("thread names in " + docs).hasSizeGreaterThan(10);
        assertThat(missing).as("thread names in the docs that no main source gives a thread").isEmpty();
    }

    /** Every main Java source of the repository, concatenated. */
    private static String mainSources() throws IOException {
        StringBuilder all = new StringBuilder();
        for (String module : modules()) {
            Path main = root().resolve(module).resolve("src/main/java");
            if (!Files.isDirectory(main)) {
                continue;
            }
            try (java.util.stream.Stream<Path> files = Files.walk(main)) {
                for (Path f : files.filter(x -> x.toString().endsWith(".java")).toList()) {
                    all.append(Files.readString(f, StandardCharsets.UTF_8)).append('\n');
                }
            }
        }
        return all.toString();
    }

    private static Set<String> reachable(String from, Map<String, Set<String>> direct) {
        Set<String> seen = new LinkedHashSet<>();
        Deque<String> todo = new ArrayDeque<>(direct.getOrDefault(from, Set.of()));
        while (!todo.isEmpty()) {
            String next = todo.pop();
            if (seen.add(next)) {
                todo.addAll(direct.getOrDefault(next, Set.of()));
            }
        }
        return seen;
    }

    private static Set<String> directDependencies(String module) throws IOException {
        String pom = Files.readString(root().resolve(module).resolve("pom.xml"), StandardCharsets.UTF_8)
                .replaceAll("(?s)<parent>.*?</parent>", "")
                .replaceAll("(?s)<dependencyManagement>.*?</dependencyManagement>", "")
                .replaceAll("(?s)<build>.*</build>", "");
        Set<String> deps = new TreeSet<>();
        Matcher d = DEPENDENCY.matcher(pom);
        while (d.find()) {
            Matcher a = ARTIFACT.matcher(d.group(1));
            if (a.find() && !TEST_SCOPE.matcher(d.group(1)).find()) {
                deps.add(a.group(1));
            }
        }
        return deps;
    }

    private static List<String> productionModules() throws IOException {
        List<String> out = new ArrayList<>();
        for (String module : modules()) {
            if (Files.isDirectory(root().resolve(module).resolve("src/main/java"))) {
                out.add(module);
            }
        }
        assertThat(out).as("modules with src/main/java").isNotEmpty();
        return out;
    }

    private static List<String> modules() throws IOException {
        List<String> out = new ArrayList<>();
        Matcher m = MODULE.matcher(Files.readString(root().resolve("pom.xml"), StandardCharsets.UTF_8));
        while (m.find()) {
            out.add(m.group(1).trim());
        }
        return out;
    }

    private static String architecture() throws IOException {
        return Files.readString(root().resolve("docs/architecture.md"), StandardCharsets.UTF_8);
    }

    /** The repository root: the test runs in server/ (Maven's module directory). */
    private static Path root() {
        Path here = Path.of("").toAbsolutePath();
        return Files.exists(here.resolve("docs/architecture.md")) ? here : here.getParent();
    }
}
