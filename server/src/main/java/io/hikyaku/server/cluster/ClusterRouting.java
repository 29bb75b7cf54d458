package io.hikyaku.server.cluster;

import io.hikyaku.protocol.HttpRequestData;
import io.hikyaku.protocol.HttpResponseData;
import io.hikyaku.server.http.InFlight;
import io.hikyaku.server.http.RequestDispatcher;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a cluster node's API requests are served. On the ready leader: here, through the normal
 * dispatcher. On any other node: forwarded whole to the leader ({@link ForwardingCodec}), which runs
 * it through its dispatcher exactly as if it had arrived there (authentication included: the client's
 * Host and signature travel unchanged), and the answer goes back to the client from this node. AWS
 * SDKs follow no redirects, so a follower never sends one.
 *
 * <p>Limits: a forwarded message is at most {@link #maxForwardBytes} (the body limit and room for the
 * head); at most {@link #MAX_FORWARDS_IN_FLIGHT} at a time per node; no answer within
 * {@link #FORWARD_TIMEOUT} (a ReceiveMessage, which may long-poll up to 20 s: {@link #RECEIVE_TIMEOUT})
 * is 503 ServiceUnavailable in the request's protocol, as is each limit reached.
 */
public final class ClusterRouting {

    private static final Logger LOG = LoggerFactory.getLogger(ClusterRouting.class);
    /** No leader answers within this: 503. */
    static final Duration FORWARD_TIMEOUT = Duration.ofSeconds(5);
    /** For ReceiveMessage: its longest wait (20 s) and the same 5 s. */
    static final Duration RECEIVE_TIMEOUT = Duration.ofSeconds(25);
    /** Forwarded requests in flight at most from one node (parked long polls included). */
    static final int MAX_FORWARDS_IN_FLIGHT = 4_096;
    /** Room for the request line, the headers and the envelope beyond the body limit. */
    private static final int HEAD_ROOM_BYTES = 256 * 1024;

    /** What routing needs of the Raft node. */
    public interface Leader {
        /** Leads and holds every committed entry: the engine here is the cluster's. */
        boolean isReadyLeader();

        /** Sends {@code request} to the current leader; completes with its answer or fails (no leader, timeout). */
        CompletableFuture<byte[]> forward(byte[] request, Duration timeout);

        /** This node's part of {@code /health}: {@code {"nodeId":..,"groups":[{"id","role","leader"}]}}. */
        com.fasterxml.jackson.databind.node.ObjectNode health();
    }

    private final Leader leader;
    private final Predicate<HttpRequestData> cloudWatchAccepts;
    private final int maxForwardBytes;
    private final Semaphore slots;
    private final int maxInFlight;
    /** Encodes the answers to forwarded requests on the leader, off the Raft threads. */
    private final ExecutorService encoder = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "hikyaku-forwarded");
        t.setDaemon(true);
        return t;
    });
    private volatile RequestDispatcher dispatcher;

    public ClusterRouting(Leader leader, Predicate<HttpRequestData> cloudWatchAccepts, int maxBodyBytes) {
        this(leader, cloudWatchAccepts, maxBodyBytes, MAX_FORWARDS_IN_FLIGHT);
    }

    ClusterRouting(Leader leader, Predicate<HttpRequestData> cloudWatchAccepts, int maxBodyBytes, int maxInFlight) {
        this.leader = leader;
        this.cloudWatchAccepts = cloudWatchAccepts;
        this.maxForwardBytes = maxBodyBytes + HEAD_ROOM_BYTES;
        this.slots = new Semaphore(maxInFlight);
        this.maxInFlight = maxInFlight;
    }

    /** The dispatcher that serves requests here (and forwarded ones on the leader); set once before serving. */
    public void attach(RequestDispatcher dispatcher) {
        this.dispatcher = dispatcher;
    }

    /**
     * The answer to an API request when it is not served here by the caller: a refusal of an API that
     * clusters do not serve, or the leader's answer; null when this node is the ready leader (serve it).
     */
    public InFlight route(HttpRequestData raw, String requestId) {
        HttpResponseData refused = ClusterRefusals.of(raw, cloudWatchAccepts, requestId);
        if (refused != null) {
            return new InFlight(CompletableFuture.completedFuture(refused), null);
        }
        if (leader.isReadyLeader()) {
            return null;
        }
        byte[] message = ForwardingCodec.encodeRequest(requestId, raw);
        if (message.length > maxForwardBytes) {
            return unavailable(raw, requestId, "The request is too large to forward to the cluster's leader ("
                    + message.length + " bytes, at most " + maxForwardBytes + ")");
        }
        if (!slots.tryAcquire()) {
            return unavailable(raw, requestId, "This node is forwarding " + maxInFlight
                    + " requests to the cluster's leader already; try again or another node");
        }
        Duration timeout = isReceive(raw) ? RECEIVE_TIMEOUT : FORWARD_TIMEOUT;
        CompletableFuture<byte[]> call;
        try {
            call = leader.forward(message, timeout);
        } catch (RuntimeException e) {
            call = CompletableFuture.failedFuture(e);
        }
        CompletableFuture<byte[]> bounded = call.orTimeout(timeout.toMillis() + 1_000, TimeUnit.MILLISECONDS);
        CompletableFuture<HttpResponseData> response = bounded.handle((bytes, failure) -> {
            slots.release();
            if (failure == null) {
                try {
                    return ForwardingCodec.decodeResponse(bytes);
                } catch (IllegalArgumentException e) {
                    failure = e;
                }
            }
            LOG.debug("Request {} could not be forwarded to the leader: {}", requestId, failure.toString());
            return dispatcher.unavailable(raw, "No cluster leader answered within " + timeout.toSeconds()
                    + " s (an election may be under way); try again", requestId);
        });
        return new InFlight(response, null);
    }

    /**
     * The leader's side: runs a request a follower forwarded through the dispatcher, as if it had
     * arrived here, and encodes its answer. A request that is not a forwarded one fails the future.
     */
    public CompletableFuture<byte[]> serveForwarded(byte[] message) {
        ForwardingCodec.Forwarded forwarded;
        try {
            forwarded = ForwardingCodec.decodeRequest(message);
        } catch (IllegalArgumentException e) {
            return CompletableFuture.failedFuture(e);
        }
        HttpRequestData raw = forwarded.request();
        InFlight served = dispatcher.dispatchForwarded(raw, forwarded.requestId(), encoder, raw.sourceIp());
        return served.response().thenApply(ForwardingCodec::encodeResponse);
    }

    /** Forwarded requests waiting for the leader's answer now. */
    public int forwardsInFlight() {
        return maxInFlight - slots.availablePermits();
    }

    /** This node's part of {@code /health}. */
    public com.fasterxml.jackson.databind.node.ObjectNode health() {
        return leader.health();
    }

    public void close() {
        encoder.shutdownNow();
    }

    private InFlight unavailable(HttpRequestData raw, String requestId, String reason) {
        return new InFlight(CompletableFuture.completedFuture(dispatcher.unavailable(raw, reason, requestId)), null);
    }

    /** A ReceiveMessage (JSON target or Query Action), which may long-poll. */
    static boolean isReceive(HttpRequestData raw) {
        String target = raw.header("x-amz-target");
        if (target != null) {
            return target.endsWith(".ReceiveMessage");
        }
        if (raw.rawQuery().contains("Action=ReceiveMessage")) {
            return true;
        }
        return raw.body().length < 64 * 1024
                && new String(raw.body(), StandardCharsets.ISO_8859_1).contains("Action=ReceiveMessage");
    }
}
