package io.hikyaku.server.cli;

import static io.hikyaku.server.cli.Flags.valued;

import io.hikyaku.cluster.ClusterAdmin;
import io.hikyaku.cluster.ClusterConfig;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;

/**
 * {@code hikyaku cluster --cluster CURRENT --set-members NEW}: changes the members of a running
 * cluster (Ratis setConfiguration through its leader). New members must be running already, started
 * with {@code --cluster NEW}; they catch up before the change commits. {@code --transfer-leader ID}
 * hands leadership to a node (a rolling restart). docs/operations.md "Cluster".
 */
final class ClusterCommand implements Subcommand {

    private static final Options OPTIONS = Flags.of(
            Option.builder().longOpt("cluster").hasArg().argName("ID=HOST:PORT,...").required()
                    .desc("The members now (Raft addresses, as each node's --cluster): any running one is enough to reach the leader.").get(),
            valued("set-members", "ID=HOST:PORT,...",
                    "The members the cluster is to have; nodes that are not in it leave the group (stop them afterwards)."),
            valued("transfer-leader", "ID", "Hand leadership to this member (before stopping the leader in a rolling restart)."),
            valued("timeout-seconds", "SECONDS", "How long to wait for the change to commit (default 120)."));

    @Override
    public String name() {
        return "cluster";
    }

    @Override
    public String summary() {
        return "Change the members of a running cluster (add, remove or replace a node).";
    }

    @Override
    public Options options() {
        return OPTIONS;
    }

    @Override
    public int run(Flags flags, PrintWriter out) throws Exception {
        String setMembers = flags.string("set-members");
        String transferTo = flags.string("transfer-leader");
        if ((setMembers == null) == (transferTo == null)) {
            throw new UsageException("give one of --set-members or --transfer-leader");
        }
        List<ClusterConfig.Peer> current;
        List<ClusterConfig.Peer> members;
        try {
            current = ClusterConfig.parsePeers(flags.string("cluster"));
            members = setMembers == null ? List.of() : ClusterConfig.parsePeers(setMembers);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        long timeoutSeconds = flags.number("timeout-seconds", 120);
        // gRPC's start-up notes (java.util.logging) are not this command's output
        java.util.logging.Logger.getLogger("").setLevel(java.util.logging.Level.WARNING);
        long start = System.nanoTime();
        if (transferTo != null) {
            ClusterAdmin.transferLeadership(current, transferTo, Duration.ofSeconds(timeoutSeconds));
            out.println("hikyaku: " + transferTo + " leads the cluster now (" + (System.nanoTime() - start) / 1_000_000 + " ms)");
            return 0;
        }
        ClusterAdmin.setMembers(current, members, Duration.ofSeconds(timeoutSeconds));
        out.println("hikyaku: the cluster's members are now " + String.join(",", members.stream()
                .map(p -> p.id() + "=" + p.address()).toList()) + " (" + (System.nanoTime() - start) / 1_000_000 + " ms)");
        return 0;
    }
}
