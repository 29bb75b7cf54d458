package io.hikyaku.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Member;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A build check that the docs name code that exists. The README, docs/*.md and every module's own
 * document name classes in three forms that can be checked, and each must hold:
 * <ul>
 *   <li>a path, {@code `server/http/ServiceRoute`}: a class of that name in that module (or, when the
 *       first part is not a module, anywhere: {@code `it/auth/SignedCall`});</li>
 *   <li>a member, {@code `EngineGate.apply`}, {@code `EngineGate.now()`}, {@code `Store#write`}: the
 *       class exists (ours, or the JDK's) and has a member of that name;</li>
 *   <li>a fully qualified name, {@code io.hikyaku.engine.store.Store}: that source file exists.</li>
 * </ul>
 * A bare {@code `CamelCase`} word is not checked: most are AWS names (actions, attributes, errors).
 * The behaviour coverage table of integration-tests/README.md names tests as {@code Class#method}: each
 * must exist.
 */
class DocNamesTest {

    private static final Pattern TICKED = Pattern.compile("`([^`\\n]+)`");
    private static final Pattern PATH = Pattern.compile("([a-z0-9-]+(?:/[a-z0-9-]+)*)/([A-Z][A-Za-z0-9]+)(?:\\.java)?");
    private static final Pattern MEMBER = Pattern.compile("([A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*)[.#]([a-z][A-Za-z0-9]*)(?:\\(\\))?");
    private static final Pattern QUALIFIED = Pattern.compile("\\bio\\.hikyaku((?:\\.[a-z0-9]+)+)\\.([A-Z][A-Za-z0-9]+)");
    private static final Pattern DECLARED = Pattern.compile("\\b(?:class|record|interface|enum)\\s+([A-Z]\\w*)");
    private static final Pattern MODULE = Pattern.compile("<module>([^<]+)</module>");
    /** Where a JDK class a doc names by member may live. */
    private static final List<String> JDK_PACKAGES = List.of("java.lang", "java.util", "java.util.concurrent",
            "java.util.concurrent.atomic", "java.nio", "java.nio.channels", "java.nio.file", "java.io", "java.time",
            "java.net", "java.net.http", "java.security", "javax.crypto");

    @Test
    void classesAndMembersTheDocsNameExist() throws IOException {
        Path root = root();
        Set<String> modules = new LinkedHashSet<>();
        Matcher mm = MODULE.matcher(Files.readString(root.resolve("pom.xml"), StandardCharsets.UTF_8));
        while (mm.find()) {
            modules.add(mm.group(1));
        }
        Sources sources = Sources.of(root);
        List<String> wrong = new ArrayList<>();
        int checked = 0;
        for (Path doc : docs(root, modules)) {
            String text = Files.readString(doc, StandardCharsets.UTF_8);
            String where = root.relativize(doc).toString();
            Matcher t = TICKED.matcher(text);
            while (t.find()) {
                String name = t.group(1);
                Matcher p = PATH.matcher(name);
                Matcher m = MEMBER.matcher(name);
                if (p.matches()) {
                    checked++;
                    String first = p.group(1).split("/")[0];
                    String cls = p.group(2);
                    if (!sources.declares(cls)) {
                        wrong.add(where + ": `" + name + "`: no class " + cls);
                    } else if (modules.contains(first) && !sources.inModule(cls, first)) {
                        wrong.add(where + ": `" + name + "`: " + cls + " is not in module " + first);
                    }
                } else if (m.matches()) {
                    String cls = m.group(1);
                    String member = m.group(2);
                    if (sources.declares(cls)) {
                        checked++;
                        if (!sources.hasWord(cls, member)) {
                            wrong.add(where + ": `" + name + "`: " + cls + " has no member " + member);
                        }
                    } else {
                        Class<?> jdk = jdkClass(cls);
                        if (jdk == null) {
                            wrong.add(where + ": `" + name + "`: no class " + cls + " (ours or the JDK's)");
                        } else {
                            checked++;
                            if (!hasMember(jdk, member)) {
                                wrong.add(where + ": `" + name + "`: " + jdk.getName() + " has no member " + member);
                            }
                        }
                    }
                }
            }
            Matcher q = QUALIFIED.matcher(text);
            while (q.find()) {
                checked++;
                String rel = ("io.hikyaku" + q.group(1)).replace('.', '/') + "/" + q.group(2) + ".java";
                if (!sources.hasFile(rel)) {
                    wrong.add(where + ": " + q.group() + ": no such source file");
                }
            }
        }
        assertThat(checked).as("checkable names found in the docs").isGreaterThan(50);
        assertThat(wrong).as("names in the docs that the code does not have").isEmpty();
    }

    /** {@code QueueLifecycleTest#b4_recreateWithin60sOfDeleteIsRefused_v2}, as the behaviour coverage table names tests. */
    private static final Pattern TEST_METHOD = Pattern.compile("\\b([A-Z][A-Za-z0-9]*Test)#([a-z][A-Za-z0-9_]*)");

    @Test
    void testsTheBehaviourCoverageTableNamesExist() throws IOException {
        Path root = root();
        Sources sources = Sources.of(root);
        String table = Files.readString(root.resolve("integration-tests/README.md"), StandardCharsets.UTF_8);
        List<String> wrong = new ArrayList<>();
        int checked = 0;
        Matcher t = TEST_METHOD.matcher(table);
        while (t.find()) {
            checked++;
            if (!sources.declares(t.group(1))) {
                wrong.add(t.group() + ": no class " + t.group(1));
            } else if (!sources.hasMethod(t.group(1), t.group(2))) {
                wrong.add(t.group() + ": " + t.group(1) + " has no method " + t.group(2));
            }
        }
        assertThat(checked).as("tests named in integration-tests/README.md").isGreaterThan(90);
        assertThat(wrong).as("tests integration-tests/README.md names that do not exist").isEmpty();
    }

    private static List<Path> docs(Path root, Set<String> modules) throws IOException {
        List<Path> docs = new ArrayList<>();
        docs.add(root.resolve("README.md"));
        try (Stream<Path> files = Files.list(root.resolve("docs"))) {
            files.filter(f -> f.toString().endsWith(".md")).sorted().forEach(docs::add);
        }
        for (String module : modules) {
            try (Stream<Path> files = Files.list(root.resolve(module))) {
                files.filter(f -> f.toString().endsWith(".md")).sorted().forEach(docs::add);
            }
        }
        return docs;
    }

    private static Class<?> jdkClass(String simple) {
        for (String pkg : JDK_PACKAGES) {
            try {
                return Class.forName(pkg + "." + simple, false, ClassLoader.getPlatformClassLoader());
            } catch (ClassNotFoundException next) {
                // try the next package
            }
        }
        return null;
    }

    private static boolean hasMember(Class<?> type, String name) {
        List<Member> members = new ArrayList<>(List.of(type.getMethods()));
        members.addAll(List.of(type.getFields()));
        return members.stream().anyMatch(m -> m.getName().equals(name));
    }

    private static Path root() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.exists(dir.resolve("docs/architecture.md"))) {
            dir = dir.getParent();
        }
        assertThat(dir).as("repository root").isNotNull();
        return dir;
    }

    /** Every Java source file of the repository (main and test), by the types it declares. */
    private record Sources(Map<String, List<Path>> byType, Set<String> relativeFiles, Path root) {

        static Sources of(Path root) throws IOException {
            Map<String, List<Path>> byType = new HashMap<>();
            Set<String> relative = new LinkedHashSet<>();
            try (Stream<Path> files = Files.walk(root)) {
                files.filter(f -> f.toString().endsWith(".java"))
                        .filter(f -> !f.toString().contains("/target/") && !f.toString().contains("/node_modules/"))
                        .forEach(f -> {
                            String path = f.toString().replace('\\', '/');
                            int java = path.indexOf("/java/io/hikyaku/");
                            if (java >= 0) {
                                relative.add(path.substring(java + "/java/".length()));
                            }
                            Matcher d = DECLARED.matcher(read(f));
                            while (d.find()) {
                                byType.computeIfAbsent(d.group(1), k -> new ArrayList<>()).add(f);
                            }
                        });
            }
            return new Sources(byType, relative, root);
        }

        boolean declares(String type) {
            return byType.containsKey(type);
        }

        boolean inModule(String type, String module) {
            Path dir = root.resolve(module);
            return byType.getOrDefault(type, List.of()).stream().anyMatch(f -> f.startsWith(dir));
        }

        boolean hasWord(String type, String word) {
            Pattern w = Pattern.compile("\\b" + Pattern.quote(word) + "\\b");
            return byType.getOrDefault(type, List.of()).stream().anyMatch(f -> w.matcher(read(f)).find());
        }

        boolean hasMethod(String type, String method) {
            Pattern m = Pattern.compile("\\bvoid\\s+" + Pattern.quote(method) + "\\s*\\(");
            return byType.getOrDefault(type, List.of()).stream().anyMatch(f -> m.matcher(read(f)).find());
        }

        boolean hasFile(String relative) {
            return relativeFiles.contains(relative);
        }

        private static String read(Path f) {
            try {
                return Files.readString(f, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
