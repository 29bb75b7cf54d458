package io.hikyaku.server.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.api.SqsService;
import io.hikyaku.api.SqsServices;
import io.hikyaku.engine.store.MemoryStore;
import io.hikyaku.protocol.HttpRequestData;
import io.hikyaku.protocol.HttpResponseData;
import io.hikyaku.server.http.CallContextFactory;
import io.hikyaku.server.http.Codecs;
import io.hikyaku.server.http.RequestDispatcher;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Two dispatchers as two nodes: the follower forwards every API request to the leader, which serves it
 * through its own dispatcher; /health stays on each node; the refused APIs never leave the node.
 */
class ClusterRoutingTest {

    static final ObjectMapper JSON = new ObjectMapper();

    /** A node's view of the Raft group, scripted. */
    static final class ScriptedLeader implements ClusterRouting.Leader {
        final AtomicBoolean ready = new AtomicBoolean();
        final AtomicReference<ClusterRouting> leader = new AtomicReference<>();
        final List<Duration> timeouts = new ArrayList<>();
        volatile boolean noLeader;
        volatile CompletableFuture<byte[]> hanging;
        final String nodeId;

        ScriptedLeader(String nodeId) {
            this.nodeId = nodeId;
        }

        @Override
        public boolean isReadyLeader() {
            return ready.get();
        }

        @Override
        public CompletableFuture<byte[]> forward(byte[] request, Duration timeout) {
            timeouts.add(timeout);
            if (hanging != null) {
                return hanging;
            }
            if (noLeader) {
                return CompletableFuture.failedFuture(new java.io.IOException("no leader"));
            }
            return leader.get().serveForwarded(request);
        }

        @Override
        public ObjectNode health() {
            ObjectNode out = JSON.createObjectNode().put("nodeId", nodeId);
            out.putArray("groups").addObject().put("id", "g").put("role", ready.get() ? "LEADER" : "FOLLOWER").put("leader", "n1");
            return out;
        }
    }

    final List<SqsService> services = new ArrayList<>();
    final List<ClusterRouting> routings = new ArrayList<>();

    RequestDispatcher node(ScriptedLeader leader, int maxInFlight) {
        SqsService service = SqsServices.create(new MemoryStore(), Clock.systemUTC());
        services.add(service);
        ClusterRouting routing = new ClusterRouting(leader, null, 1 << 20, maxInFlight);
        routings.add(routing);
        RequestDispatcher d = new RequestDispatcher(Codecs.standard(), service,
                new CallContextFactory("000000000000", "us-east-1", null, "127.0.0.1", () -> 9324), () -> true, () -> null, null);
        d.cluster(routing);
        return d;
    }

    @AfterEach
    void close() {
        routings.forEach(ClusterRouting::close);
        services.forEach(SqsService::close);
    }

    static HttpRequestData sqs(String action, String body) {
        Map<String, String> h = Map.of("host", "127.0.0.1:9324", "content-type", "application/x-amz-json-1.0",
                "x-amz-target", "AmazonSQS." + action);
        return new HttpRequestData("POST", "/", "", h, body.getBytes(StandardCharsets.UTF_8), "/",
                new ArrayList<>(h.entrySet()), "192.0.2.9", false);
    }

    static HttpResponseData call(RequestDispatcher d, HttpRequestData r, String id) {
        return d.dispatch(r, id, Runnable::run).response().join();
    }

    static String text(HttpResponseData r) {
        return new String(r.body(), StandardCharsets.UTF_8);
    }

    @Test
    void aFollowerForwardsToTheLeaderWhichServesAsIfTheRequestHadArrivedThere() {
        ScriptedLeader one = new ScriptedLeader("n1");
        one.ready.set(true);
        RequestDispatcher leader = node(one, 16);
        ScriptedLeader two = new ScriptedLeader("n2");
        RequestDispatcher follower = node(two, 16);
        two.leader.set(routings.get(0));

        HttpResponseData created = call(follower, sqs("CreateQueue", "{\"QueueName\":\"orders\"}"), "req-1");
        assertThat(created.status()).as(text(created)).isEqualTo(200);
        assertThat(text(created)).contains("/000000000000/orders");
        HttpResponseData listed = call(leader, sqs("ListQueues", "{}"), "req-2"); // the leader's own engine has it
        assertThat(text(listed)).contains("orders");
        // the follower's engine was never used
        assertThat(text(call(follower, sqs("GetQueueUrl", "{\"QueueName\":\"orders\"}"), "req-3"))).contains("/orders");
        assertThat(two.timeouts).containsOnly(ClusterRouting.FORWARD_TIMEOUT);

        HttpResponseData missing = call(follower, sqs("GetQueueUrl", "{\"QueueName\":\"nope\"}"), "req-4");
        assertThat(missing.status()).isEqualTo(400); // the leader's error, its headers with it
        assertThat(missing.headers()).containsKey("x-amzn-query-error");
    }

    @Test
    void aReceiveMayWaitItsLongPollAndTheRestFiveSeconds() {
        ScriptedLeader one = new ScriptedLeader("n1");
        one.ready.set(true);
        node(one, 16);
        ScriptedLeader two = new ScriptedLeader("n2");
        RequestDispatcher follower = node(two, 16);
        two.leader.set(routings.get(0));
        call(follower, sqs("CreateQueue", "{\"QueueName\":\"q\"}"), "a");
        call(follower, sqs("ReceiveMessage", "{\"QueueUrl\":\"http://127.0.0.1:9324/000000000000/q\"}"), "b");
        assertThat(two.timeouts).containsExactly(ClusterRouting.FORWARD_TIMEOUT, ClusterRouting.RECEIVE_TIMEOUT);
        assertThat(ClusterRouting.isReceive(new HttpRequestData("POST", "/", "", Map.of(),
                "Action=ReceiveMessage&QueueUrl=x".getBytes(StandardCharsets.UTF_8)))).isTrue();
        assertThat(ClusterRouting.isReceive(new HttpRequestData("GET", "/", "Action=ReceiveMessage", Map.of(), new byte[0]))).isTrue();
        assertThat(ClusterRouting.isReceive(new HttpRequestData("POST", "/", "", Map.of(),
                "Action=SendMessage".getBytes(StandardCharsets.UTF_8)))).isFalse();
    }

    @Test
    void noLeaderIs503ServiceUnavailableInTheRequestsProtocol() {
        ScriptedLeader two = new ScriptedLeader("n2");
        two.noLeader = true;
        RequestDispatcher follower = node(two, 16);
        HttpResponseData r = call(follower, sqs("ListQueues", "{}"), "r");
        assertThat(r.status()).isEqualTo(503);
        assertThat(text(r)).contains("ServiceUnavailable").contains("No cluster leader answered within 5 s");
    }

    @Test
    void theForwardsInFlightAreBounded() {
        ScriptedLeader two = new ScriptedLeader("n2");
        two.hanging = new CompletableFuture<>();
        RequestDispatcher follower = node(two, 1);
        CompletableFuture<HttpResponseData> first = follower.dispatch(sqs("ListQueues", "{}"), "a", Runnable::run).response();
        HttpResponseData second = call(follower, sqs("ListQueues", "{}"), "b");
        assertThat(first).isNotDone();
        assertThat(second.status()).isEqualTo(503);
        assertThat(text(second)).contains("forwarding 1 requests to the cluster's leader already");
        assertThat(routings.get(0).forwardsInFlight()).isEqualTo(1);
        two.hanging.completeExceptionally(new java.io.IOException("gone"));
        assertThat(first.join().status()).isEqualTo(503);
        assertThat(routings.get(0).forwardsInFlight()).isZero();
    }

    @Test
    void healthStaysOnTheNodeAndNamesItsRole() throws Exception {
        ScriptedLeader two = new ScriptedLeader("n2");
        two.noLeader = true; // nothing is forwarded
        RequestDispatcher follower = node(two, 16);
        HttpResponseData health = call(follower, new HttpRequestData("GET", "/health", "", Map.of(), new byte[0]), "h");
        assertThat(health.status()).isEqualTo(200);
        var doc = JSON.readTree(health.body());
        assertThat(doc.get("status").asText()).isEqualTo("ok");
        assertThat(doc.at("/cluster/nodeId").asText()).isEqualTo("n2");
        assertThat(doc.at("/cluster/groups/0/role").asText()).isEqualTo("FOLLOWER");
        assertThat(doc.at("/cluster/groups/0/leader").asText()).isEqualTo("n1");
        assertThat(two.timeouts).isEmpty();
    }

    @Test
    void lambdaMappingsAreRefusedOnEveryNodeWithoutForwardingAndSnsKmsSchedulerAreNot() {
        ScriptedLeader one = new ScriptedLeader("n1");
        one.ready.set(true);
        RequestDispatcher leader = node(one, 16);
        HttpResponseData lambda = call(leader, new HttpRequestData("GET", "/2015-03-31/event-source-mappings/", "", Map.of(),
                new byte[0]), "l");
        assertThat(lambda.status()).isEqualTo(400);
        assertThat(text(lambda)).contains("The Lambda API (event source mappings) is not available in cluster mode");
        // served by the ready leader (this test's node runs none of them: "not running", never "not available")
        HttpResponseData sns = call(leader, new HttpRequestData("POST", "/", "", Map.of("content-type",
                "application/x-www-form-urlencoded"), "Action=ListTopics&Version=2010-03-31".getBytes(StandardCharsets.UTF_8)), "s");
        assertThat(text(sns)).doesNotContain("not available in cluster mode");
        HttpResponseData scheduler = call(leader, new HttpRequestData("GET", "/schedules", "", Map.of(), new byte[0]), "c");
        assertThat(text(scheduler)).doesNotContain("not available in cluster mode");
        assertThat(one.timeouts).isEmpty();
    }
}
