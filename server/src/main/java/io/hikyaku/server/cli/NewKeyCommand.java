package io.hikyaku.server.cli;

import io.hikyaku.identity.NewKeys;
import java.io.PrintWriter;
import org.apache.commons.cli.Options;

/**
 * {@code hikyaku new-key}: prints a fresh random access key id ({@code AKIA} + 16 base32
 * characters) and a 40-character secret, ready for the config file's {@code accessKeys}.
 */
final class NewKeyCommand implements Subcommand {

    @Override
    public String name() {
        return "new-key";
    }

    @Override
    public String summary() {
        return "Print a fresh random access key id and secret access key for the config file.";
    }

    @Override
    public Options options() {
        return new Options();
    }

    @Override
    public int run(Flags flags, PrintWriter out) {
        NewKeys keys = new NewKeys();
        out.println("accessKeyId: " + keys.longTermKeyId());
        out.println("secretAccessKey: " + keys.secret());
        return 0;
    }
}
