package io.hikyaku.journal;

import io.hikyaku.engine.EngineShard;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Which file each engine shard journals to, for {@code --journal FILE}: with one shard, FILE itself
 * (as before shards existed); with N shards, every shard i writes {@code FILE.shard-i-of-N}, FILE
 * itself is not written. The names say how many shards there were, so a replay knows which files
 * make a whole set, and a restart with another shard count starts a new set rather than mixing one
 * shard's commands into another's file. Each file is written on its own shard's applier thread only.
 */
public final class JournalFiles {

    private static final Pattern SHARD = Pattern.compile("\\.shard-(\\d{1,4})-of-(\\d{1,4})$");

    private JournalFiles() {
    }

    /** The file {@code shard} journals to, for the configured {@code file}. */
    public static Path of(Path file, EngineShard shard) {
        if (shard.count() == 1) {
            return file;
        }
        return file.resolveSibling(file.getFileName() + ".shard-" + shard.index() + "-of-" + shard.count());
    }

    /**
     * The journal files the configured {@code file} stands for, one per shard in shard order: FILE
     * alone when it exists, else the set {@code FILE.shard-i-of-N}. Throws when there is neither,
     * when sets of several shard counts lie there, or when a shard's file of the set is missing.
     */
    public static List<Path> find(Path file) throws IOException {
        if (Files.isRegularFile(file)) {
            return List.of(file);
        }
        Path parent = file.toAbsolutePath().getParent();
        String name = file.getFileName().toString();
        TreeMap<Integer, TreeSet<Integer>> byCount = new TreeMap<>();
        if (Files.isDirectory(parent)) {
            try (Stream<Path> entries = Files.list(parent)) {
                for (Path p : entries.toList()) {
                    String n = p.getFileName().toString();
                    if (!n.startsWith(name)) {
                        continue;
                    }
                    Matcher m = SHARD.matcher(n.substring(name.length()));
                    if (m.matches() && Integer.parseInt(m.group(2)) > 1) {
                        byCount.computeIfAbsent(Integer.parseInt(m.group(2)), c -> new TreeSet<>())
                                .add(Integer.parseInt(m.group(1)));
                    }
                }
            }
        }
        if (byCount.isEmpty()) {
            throw new IOException("journal " + file + " does not exist (nor " + name + ".shard-I-of-N files of engine shards)");
        }
        if (byCount.size() > 1) {
            throw new IOException("journal " + file + ": files of servers with " + byCount.keySet()
                    + " engine shards lie side by side; replay one set (move the others away)");
        }
        int count = byCount.firstKey();
        List<Path> files = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Path p = of(file, new EngineShard(i, count));
            files.add(p);
            if (!byCount.get(count).contains(i)) {
                missing.add(p.getFileName().toString());
            }
        }
        if (!missing.isEmpty()) {
            throw new IOException("journal " + file + ": the server ran " + count + " engine shards, and the file of "
                    + (missing.size() == 1 ? "shard " : "shards ") + String.join(", ", missing)
                    + " is missing: each shard's file is needed");
        }
        return files;
    }

    /** The shard a file name says wrote it ({@link EngineShard#ONLY} for a name without the suffix). */
    public static EngineShard shardOf(Path journal) {
        Matcher m = SHARD.matcher(journal.getFileName().toString());
        if (!m.find()) {
            return EngineShard.ONLY;
        }
        return new EngineShard(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)));
    }
}
