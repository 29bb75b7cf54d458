package io.hikyaku.server.cli;

import io.hikyaku.server.config.ConfigException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;

/**
 * {@code hikyaku <command> [flags]}: finds the subcommand, parses its flags, runs it. Exit codes: 0 done,
 * 2 a command line or setting that cannot be used (one line on stderr saying why; no command at all
 * prints the usage on stderr), 1 anything else that stops a command ({@code hikyaku: <why>}, also one line).
 */
public final class HikyakuCommand {

    static final String SUMMARY = "A self-hostable message queue server that speaks the Amazon SQS API.";

    private final Map<String, Subcommand> commands = new LinkedHashMap<>();
    private final PrintWriter out;
    private final PrintWriter err;

    private HikyakuCommand(Map<String, String> env, PrintWriter out, PrintWriter err) {
        this.out = out;
        this.err = err;
        for (Subcommand c : List.of(new ServeCommand(env), new BackupCommand(env), new ReplayCommand(), new SelfCheckCommand(env), new NewKeyCommand(), new ReencryptCommand(env), new ClusterCommand())) {
            commands.put(c.name(), c);
        }
    }

    /** The full command line; {@code env} stands for the process environment (tests pass their own). */
    public static HikyakuCommand commandLine(Map<String, String> env, PrintWriter out, PrintWriter err) {
        return new HikyakuCommand(env, out, err);
    }

    /** Runs {@code args} and returns the exit code; never throws. */
    public int execute(String... args) {
        try {
            return dispatch(args);
        } catch (UsageException | ConfigException e) {
            err.println("hikyaku: " + e.getMessage());
            return 2;
        } catch (Exception e) {
            err.println("hikyaku: " + e.getMessage());
            return 1;
        } finally {
            out.flush();
            err.flush();
        }
    }

    private int dispatch(String[] args) throws Exception {
        if (args.length == 0) {
            // No command is a usage error (exit 2, like any other), not a request for help.
            printUsage(err);
            return 2;
        }
        if (isHelp(args[0]) || args[0].equals("help")) {
            printUsage(out);
            return 0;
        }
        if (isVersion(args[0])) {
            return printVersion();
        }
        Subcommand command = commands.get(args[0]);
        if (command == null) {
            throw new UsageException("unknown command '" + args[0] + "' (try 'hikyaku --help')");
        }
        String[] rest = Arrays.copyOfRange(args, 1, args.length);
        if (Arrays.stream(rest).anyMatch(HikyakuCommand::isHelp)) {
            printHelp(command, withStandardFlags(command.options()));
            return 0;
        }
        if (Arrays.stream(rest).anyMatch(HikyakuCommand::isVersion)) {
            return printVersion();
        }
        Flags flags;
        try {
            flags = Flags.parse(command.options(), rest);
        } catch (UsageException e) {
            throw new UsageException(e.getMessage() + " (try 'hikyaku " + command.name() + " --help')");
        }
        return command.run(flags, out);
    }

    private static boolean isHelp(String arg) {
        return arg.equals("-h") || arg.equals("--help");
    }

    private static boolean isVersion(String arg) {
        return arg.equals("-V") || arg.equals("--version");
    }

    private static Options withStandardFlags(Options own) {
        Options all = new Options();
        own.getOptions().forEach(all::addOption);
        all.addOption(Option.builder("h").longOpt("help").desc("Show this help and exit.").get());
        all.addOption(Option.builder("V").longOpt("version").desc("Print the version and exit.").get());
        return all;
    }

    private int printVersion() {
        out.println("hikyaku " + Version.current() + " (commit " + Version.commit() + ")");
        return 0;
    }

    private void printUsage(PrintWriter to) {
        to.println("Usage: hikyaku <command> [flags]");
        to.println(SUMMARY);
        to.println();
        to.println("Commands:");
        for (Subcommand c : commands.values()) {
            if (!c.hidden()) {
                to.printf(Locale.ROOT, "  %-10s %s%n", c.name(), c.summary());
            }
        }
        to.println();
        to.println("  -h, --help     Show this help and exit.");
        to.println("  -V, --version  Print the version and exit.");
        to.println("Run 'hikyaku <command> --help' for a command's flags.");
    }

    private void printHelp(Subcommand command, Options options) {
        out.println("Usage: hikyaku " + command.name() + " [flags]");
        out.println(command.summary());
        out.println();
        List<String[]> rows = new ArrayList<>();
        for (Option o : options.getOptions()) {
            String names = (o.getOpt() != null ? "-" + o.getOpt() + ", " : "    ") + "--" + o.getLongOpt()
                    + (o.hasArg() ? " " + o.getArgName() : "");
            rows.add(new String[] {names, o.getDescription()});
        }
        int width = rows.stream().mapToInt(r -> r[0].length()).max().orElse(0);
        for (String[] r : rows) {
            out.printf(Locale.ROOT, "  %-" + width + "s  %s%n", r[0], r[1]);
        }
    }
}
