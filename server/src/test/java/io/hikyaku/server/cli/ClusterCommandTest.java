package io.hikyaku.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code hikyaku cluster}: its usage and the refusals before anything is contacted (cluster-tests run the real changes). */
class ClusterCommandTest {

    private static final String PEERS = "n1=127.0.0.1:9601,n2=127.0.0.1:9602,n3=127.0.0.1:9603";

    private record Run(int code, String out, String err) {}

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = HikyakuCommand.commandLine(Map.of(), new PrintWriter(out, true), new PrintWriter(err, true)).execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    @Test
    void helpNamesItsFlags() {
        Run r = run("cluster", "--help");
        assertThat(r.code()).isZero();
        assertThat(r.out() + r.err()).contains("--cluster", "--set-members", "--transfer-leader", "--timeout-seconds");
        assertThat(run("--help").out() + run("--help").err()).contains("cluster");
    }

    @Test
    void exactlyOneChangeAndWellFormedListsAreRequired() {
        Run neither = run("cluster", "--cluster", PEERS);
        assertThat(neither.code()).isNotZero();
        assertThat(neither.err()).contains("give one of --set-members or --transfer-leader");
        Run both = run("cluster", "--cluster", PEERS, "--set-members", PEERS, "--transfer-leader", "n2");
        assertThat(both.code()).isNotZero();
        assertThat(both.err()).contains("give one of --set-members or --transfer-leader");
        Run bad = run("cluster", "--cluster", PEERS, "--set-members", "n1=127.0.0.1:9601,n4");
        assertThat(bad.code()).isNotZero();
        assertThat(bad.err()).contains("cluster entry 'n4' is not id=host:port");
        Run twice = run("cluster", "--cluster", PEERS, "--set-members", "n1=127.0.0.1:9601,n1=127.0.0.1:9602");
        assertThat(twice.err()).contains("node id 'n1' appears more than once");
    }
}
