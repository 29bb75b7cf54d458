package io.hikyaku.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.server.cli.HikyakuCommand;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** One {@code hikyaku replay ARGS} run in-process: its exit code and everything it printed. */
record ReplayRun(int exit, String out) {

    private static final Pattern DIGEST = Pattern.compile("digest ([0-9a-f]{64})");

    static ReplayRun of(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        String[] all = new String[args.length + 1];
        all[0] = "replay";
        System.arraycopy(args, 0, all, 1, args.length);
        int exit = HikyakuCommand.commandLine(Map.of(), new PrintWriter(out), new PrintWriter(err)).execute(all);
        return new ReplayRun(exit, out + err.toString());
    }

    /** The first state digest the run printed. */
    String digest() {
        Matcher m = DIGEST.matcher(out);
        assertThat(m.find()).as(out).isTrue();
        return m.group(1);
    }
}
