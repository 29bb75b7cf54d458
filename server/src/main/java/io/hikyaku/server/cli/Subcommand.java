package io.hikyaku.server.cli;

import java.io.PrintWriter;
import org.apache.commons.cli.Options;

/** One {@code hikyaku <name>}: its flags, and what it does with them. */
interface Subcommand {

    String name();

    /** One sentence for the usage text. */
    String summary();

    /** Hidden subcommands work but are not listed in the usage text. */
    default boolean hidden() {
        return false;
    }

    /** The flags it takes (help and version are added by {@link HikyakuCommand}). */
    Options options();

    /** Runs with the parsed flags; returns the exit code. Exceptions become a one-line "hikyaku: why". */
    int run(Flags flags, PrintWriter out) throws Exception;
}
