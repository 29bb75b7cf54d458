package io.hikyaku.server.config;

import io.hikyaku.push.DeclaredMapping;
import io.hikyaku.push.FunctionConfig;
import io.hikyaku.push.PushConfig;
import io.hikyaku.server.QueueDefinition;
import io.hikyaku.server.ServerConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The SAM templates to read at start ({@code samTemplates:}, {@code --sam-template}), and how their
 * content joins the configuration once the account and region are known: their queues after the
 * config file's (a queue of the same name in the config file wins), their mappings after the declared
 * ones, and a template function's Timeout for a config function that has no {@code timeoutSeconds}.
 *
 * @param paths            the templates, in order
 * @param untimedFunctions the config file's functions written without {@code timeoutSeconds}
 */
public record SamTemplates(List<Path> paths, Set<String> untimedFunctions) {

    public static final SamTemplates NONE = new SamTemplates(List.of(), Set.of());

    public SamTemplates {
        paths = List.copyOf(paths);
        untimedFunctions = Set.copyOf(untimedFunctions);
    }

    /** The same functions' timeouts with other templates (flags and environment replace the file's list). */
    public SamTemplates withPaths(List<Path> value) {
        return new SamTemplates(value, untimedFunctions);
    }

    ServerConfig applyTo(ServerConfig c) {
        if (paths.isEmpty()) {
            return c;
        }
        Set<String> names = new HashSet<>();
        c.push().functions().forEach(f -> names.add(f.name()));
        List<QueueDefinition> queues = new ArrayList<>(c.queues());
        Set<String> queueNames = new LinkedHashSet<>();
        c.queues().stream().filter(q -> q.account() == null || q.account().equals(c.accountId())).forEach(q -> queueNames.add(q.name()));
        List<DeclaredMapping> mappings = new ArrayList<>(c.push().mappings());
        Map<String, Integer> timeouts = new HashMap<>();
        Map<String, Path> timeoutSource = new HashMap<>();
        for (Path path : paths) {
            SamTemplate t = SamTemplate.read(path, names, c.accountId(), c.region());
            for (QueueDefinition q : t.queues()) {
                if (queueNames.add(q.name())) {
                    queues.add(q);
                }
            }
            mappings.addAll(t.mappings());
            t.timeouts().forEach((fn, seconds) -> {
                Integer before = timeouts.putIfAbsent(fn, seconds);
                if (before != null && !before.equals(seconds)) {
                    throw new ConfigException(path + ": function " + fn + " has Timeout " + seconds + " here and "
                            + before + " in " + timeoutSource.get(fn) + "; set timeoutSeconds in the config file");
                }
                timeoutSource.putIfAbsent(fn, path);
            });
        }
        List<FunctionConfig> functions = new ArrayList<>();
        for (FunctionConfig f : c.push().functions()) {
            Integer timeout = untimedFunctions.contains(f.name()) ? timeouts.get(f.name()) : null;
            try {
                functions.add(timeout == null || Objects.equals(timeout, f.timeoutSeconds()) ? f
                        : f.withTimeout(timeout));
            } catch (IllegalArgumentException e) {
                throw new ConfigException(timeoutSource.get(f.name()) + ": Timeout: " + e.getMessage(), e);
            }
        }
        return c.withQueues(queues).withPush(new PushConfig(functions, mappings));
    }
}
