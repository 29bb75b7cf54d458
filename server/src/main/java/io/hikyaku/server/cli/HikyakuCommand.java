package io.hikyaku.server.cli;

import io.hikyaku.server.config.ConfigException;
import java.io.PrintWriter;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code hikyaku}: the top-level command; does nothing itself but list its subcommands. */
@Command(name = "hikyaku", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = "A self-hostable message queue server that speaks the Amazon SQS API.")
public final class HikyakuCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** The full command line; {@code env} stands for the process environment (tests pass their own). */
    public static CommandLine commandLine(Map<String, String> env, PrintWriter out, PrintWriter err) {
        CommandLine cl = new CommandLine(new HikyakuCommand());
        cl.addSubcommand("serve", new ServeCommand(env));
        cl.addSubcommand("backup", new BackupCommand());
        cl.addSubcommand("selfcheck", new SelfCheckCommand(env));
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        // One line, "hikyaku: <why>"; exit 2 for a bad setting, 1 for anything else that stops a command.
        cl.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            commandLine.getErr().println("hikyaku: " + e.getMessage());
            return e instanceof ConfigException ? 2 : 1;
        });
        cl.setOut(out);
        cl.setErr(err);
        return cl;
    }
}
