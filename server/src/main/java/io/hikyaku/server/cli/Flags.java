package io.hikyaku.server.cli;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.DefaultParser;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.apache.commons.cli.ParseException;

/** Typed access to parsed flags; a value of the wrong shape is a {@link UsageException}. Absent flags read as null. */
final class Flags {

    private final CommandLine parsed;

    private Flags(CommandLine parsed) {
        this.parsed = parsed;
    }

    /**
     * Parses {@code args} against {@code options}. Flags must be spelled out in full (no prefix
     * matching: {@code --prot} is an error, not {@code --port}); {@code --flag value} and
     * {@code --flag=value} both work; anything that is not a flag is an error.
     */
    static Flags parse(Options options, String[] args) {
        CommandLine parsed;
        try {
            parsed = DefaultParser.builder().setAllowPartialMatching(false).get().parse(options, args, false);
        } catch (ParseException e) {
            throw new UsageException(e.getMessage());
        }
        if (parsed.getArgs().length > 0) {
            throw new UsageException("unexpected argument '" + parsed.getArgs()[0] + "'");
        }
        return new Flags(parsed);
    }

    /** A long-only flag that takes one value, e.g. {@code --port 9324}. */
    static Option valued(String name, String label, String description) {
        return Option.builder().longOpt(name).hasArg().argName(label).desc(description).get();
    }

    /** A long-only flag without a value, e.g. {@code --allow-unauthenticated}. */
    static Option toggle(String name, String description) {
        return Option.builder().longOpt(name).desc(description).get();
    }

    /** True when the value-less flag {@code name} was given. */
    boolean has(String name) {
        return parsed.hasOption(name);
    }

    static Options of(Option... options) {
        Options all = new Options();
        for (Option o : options) {
            all.addOption(o);
        }
        return all;
    }

    String string(String name) {
        return parsed.getOptionValue(name);
    }

    Path path(String name) {
        String v = string(name);
        return v == null ? null : Path.of(v);
    }

    Path path(String name, Path absent) {
        Path v = path(name);
        return v == null ? absent : v;
    }

    long number(String name, long absent) {
        Long v = number(name);
        return v == null ? absent : v;
    }

    Integer integer(String name) {
        Long v = number(name);
        if (v == null) {
            return null;
        }
        if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
            throw new UsageException("invalid value for --" + name + ": '" + string(name) + "' is out of range");
        }
        return v.intValue();
    }

    Long number(String name) {
        String v = string(name);
        if (v == null) {
            return null;
        }
        try {
            return Long.parseLong(v.trim());
        } catch (NumberFormatException e) {
            throw new UsageException("invalid value for --" + name + ": '" + v + "' is not a whole number");
        }
    }

    /** Enum constants are matched ignoring case: {@code --storage MEMORY} and {@code --storage memory} are the same. */
    <E extends Enum<E>> E choice(String name, Class<E> type) {
        String v = string(name);
        if (v == null) {
            return null;
        }
        for (E e : type.getEnumConstants()) {
            if (e.name().equalsIgnoreCase(v.trim())) {
                return e;
            }
        }
        String allowed = Arrays.stream(type.getEnumConstants()).map(e -> e.name().toLowerCase(Locale.ROOT))
                .collect(Collectors.joining(", "));
        throw new UsageException("invalid value for --" + name + ": '" + v + "' (expected one of: " + allowed + ")");
    }
}
