package io.hikyaku.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code ./hikyaku} launcher, run for real on a copy of it in a scratch tree with a stand-in
 * {@code mvn} on the PATH and a tiny jar: it rebuilds when a source of any module the root pom
 * lists is newer than the jar (a fixed module list once went stale), not otherwise, and when stderr
 * is not a terminal it strips the colour escapes the build prints.
 */
class LauncherScriptTest {

    private static final String ESC = "\u001b";

    @TempDir
    Path tree;

    @Test
    void rebuildsForAnyModuleOfThePomAndStripsEscapesWhenStderrIsAFile() throws Exception {
        Path launcher = repositoryRoot().resolve("hikyaku");
        Files.copy(launcher, tree.resolve("hikyaku"));
        tree.resolve("hikyaku").toFile().setExecutable(true);
        Files.writeString(tree.resolve("pom.xml"),
                "<project><modules>\n    <module>alpha</module>\n    <module>server</module>\n</modules></project>\n");
        Path source = tree.resolve("alpha/src/main/java/A.java");
        Files.createDirectories(source.getParent());
        Files.writeString(source, "class A {}\n");
        Files.createDirectories(tree.resolve("server/src/main"));
        Path jar = tree.resolve("server/target/hikyaku.jar");
        Files.createDirectories(jar.getParent());
        writeJarThatPrintsItsArguments(jar);
        Path bin = tree.resolve("bin");
        Files.createDirectories(bin);
        Path mvn = bin.resolve("mvn");
        Files.writeString(mvn, "#!/usr/bin/env bash\n"
                + "printf '\\033[1;34mbuilding for real\\033[0m\\n'\n"
                + "printf '\\033[31m[WARN] coloured\\033[m\\n' >&2\n"
                + "touch \"" + jar + "\"\n");
        Files.setPosixFilePermissions(mvn, PosixFilePermissions.fromString("rwxr-xr-x"));

        // the jar is newer than every source: no build
        Instant past = Instant.now().minusSeconds(3600);
        for (Path p : List.of(tree.resolve("pom.xml"), tree.resolve("alpha/pom.xml"), source)) {
            if (Files.exists(p)) {
                Files.setLastModifiedTime(p, FileTime.from(past));
            }
        }
        Run quiet = run("--version");
        assertThat(quiet.stdout).contains("args: --version");
        assertThat(quiet.stderr).doesNotContain("building");

        // a source of a module named only in the root pom changes: the jar is rebuilt first
        Files.setLastModifiedTime(source, FileTime.from(Instant.now().plusSeconds(5)));
        Run rebuilt = run("serve", "--port", "0");
        assertThat(rebuilt.stderr).contains("hikyaku: building").contains("building for real").contains("[WARN] coloured");
        assertThat(rebuilt.stderr).doesNotContain(ESC);
        assertThat(rebuilt.stdout).contains("args: serve --port 0");
    }

    private Run run(String... args) throws Exception {
        Path out = tree.resolve("stdout.txt");
        Path err = tree.resolve("stderr.txt");
        List<String> command = new java.util.ArrayList<>(List.of(tree.resolve("hikyaku").toString()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
        pb.environment().put("PATH", tree.resolve("bin") + ":" + System.getenv("PATH"));
        pb.environment().put("HIKYAKU_CDS", "0");
        pb.environment().remove("JAVA_OPTS");
        Process p = pb.start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("launcher finished").isTrue();
        assertThat(p.exitValue()).as("launcher exit status; stderr: %s", Files.readString(err)).isZero();
        return new Run(Files.readString(out), Files.readString(err));
    }

    private record Run(String stdout, String stderr) {}

    private void writeJarThatPrintsItsArguments(Path jar) throws IOException {
        Path src = tree.resolve("main-src/Main.java");
        Files.createDirectories(src.getParent());
        Files.writeString(src, "public class Main { public static void main(String[] a) {"
                + " System.out.println(\"args: \" + String.join(\" \", a)); } }\n");
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        assertThat(javac).as("a JDK compiler").isNotNull();
        assertThat(javac.run(null, null, null, "-d", src.getParent().toString(), src.toString())).isZero();
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, "Main");
        try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file, manifest)) {
            out.putNextEntry(new JarEntry("Main.class"));
            out.write(Files.readAllBytes(src.getParent().resolve("Main.class")));
            out.closeEntry();
        }
    }

    private static Path repositoryRoot() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.exists(dir.resolve("hikyaku"))) {
            dir = dir.getParent();
        }
        assertThat(dir).as("repository root").isNotNull();
        return dir;
    }
}
