package io.hikyaku.server.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.api.CallContext;
import io.hikyaku.api.SqsService;
import io.hikyaku.protocol.ApiException;
import io.hikyaku.protocol.ApiRequest;
import io.hikyaku.protocol.HttpRequestData;
import io.hikyaku.protocol.HttpResponseData;
import io.hikyaku.protocol.ProtocolCodec;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import io.hikyaku.server.admin.AdminEndpoint;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Routes one HTTP request: /health, /health/ready, /_hikyaku/ admin requests, otherwise decode,
 * invoke the service, encode. Free of Netty so it can be tested alone. Never fails: every problem
 * becomes an HTTP response.
 */
public final class RequestDispatcher {

    private static final Logger LOG = LoggerFactory.getLogger(RequestDispatcher.class);
    private static final Map<String, String> JSON = Map.of("content-type", "application/json");
    private static final String READY_PATH = "/health/ready";
    private static final com.fasterxml.jackson.databind.ObjectMapper FAILURE_JSON = new com.fasterxml.jackson.databind.ObjectMapper();

    private final ProtocolCodec codec;
    private final SqsService service;
    private final CallContextFactory contexts;
    private final BooleanSupplier serving;
    private final Supplier<String> storeProblem;
    private final AdminEndpoint admin;

    public RequestDispatcher(ProtocolCodec codec, SqsService service, CallContextFactory contexts, BooleanSupplier serving) {
        this(codec, service, contexts, serving, () -> null, null);
    }

    /**
     * @param storeProblem why store writes fail right now, or null (reported by /health as "degraded")
     * @param admin        the admin endpoint, or null when there is none (admin paths then get 404)
     */
    public RequestDispatcher(ProtocolCodec codec, SqsService service, CallContextFactory contexts, BooleanSupplier serving,
                             Supplier<String> storeProblem, AdminEndpoint admin) {
        this.codec = codec;
        this.service = service;
        this.contexts = contexts;
        this.serving = serving;
        this.storeProblem = storeProblem;
        this.admin = admin;
    }

    /**
     * @param encoder where results are encoded (the connection's event loop, so service threads
     *                only hand over)
     */
    public InFlight dispatch(HttpRequestData raw, String requestId, Executor encoder) {
        return dispatch(raw, requestId, encoder, false);
    }

    /** @param fromThisHost the peer is this machine (loopback or the address it connected to); admin needs it */
    public InFlight dispatch(HttpRequestData raw, String requestId, Executor encoder, boolean fromThisHost) {
        if (isHealthCheck(raw)) {
            return new InFlight(CompletableFuture.completedFuture(health(raw.path().equals(READY_PATH))), null);
        }
        if (AdminEndpoint.isAdminPath(raw)) {
            if (admin == null) {
                return done(new HttpResponseData(404, JSON,
                        "{\"error\":\"no admin endpoint (storage memory)\"}".getBytes(StandardCharsets.UTF_8)));
            }
            return new InFlight(admin.handle(raw, fromThisHost), null);
        }
        ApiRequest decoded;
        try {
            decoded = codec.decode(raw);
        } catch (ApiException e) {
            return done(safeError(raw, null, e, requestId));
        } catch (RuntimeException e) {
            return done(internalError(raw, null, e, requestId));
        }
        CompletableFuture<ObjectNode> call;
        try {
            CallContext context = contexts.create(raw, requestId);
            call = service.invoke(context, decoded);
            if (call == null) {
                throw new IllegalStateException("service returned no future for " + decoded.action());
            }
        } catch (ApiException e) {
            return done(safeError(raw, decoded, e, requestId));
        } catch (RuntimeException e) {
            return done(internalError(raw, decoded, e, requestId));
        }
        // What encoding needs, without the request's headers, body and input tree: a parked long
        // poll keeps this for up to 20 s, so it should hold as little as possible.
        ApiRequest shape = new ApiRequest(decoded.action(), null, decoded.protocol(), decoded.acceptJson(), decoded.path());
        CompletableFuture<HttpResponseData> response =
                call.handleAsync((result, failure) -> encode(null, shape, result, failure, requestId), encoder);
        return new InFlight(response, call);
    }

    /**
     * A request refused before its body was read because it is larger than the server accepts: HTTP
     * 413 (what Amazon SQS's front end answers to an oversized request), but with an SQS error body in
     * the request's protocol (JSON or Query XML, found from its headers) that every SDK can parse,
     * where SQS sends plain text that they cannot.
     */
    public HttpResponseData tooLarge(HttpRequestData head, String reason, String requestId) {
        return safeError(head, null, new ApiException("RequestEntityTooLarge", reason + "."), requestId);
    }

    private HttpResponseData encode(HttpRequestData raw, ApiRequest decoded, ObjectNode result, Throwable failure, String requestId) {
        if (failure == null) {
            try {
                return codec.encodeResult(decoded, result, requestId);
            } catch (RuntimeException e) {
                return internalError(raw, decoded, e, requestId);
            }
        }
        Throwable cause = unwrap(failure);
        if (cause instanceof ApiException api) {
            return safeError(raw, decoded, api, requestId);
        }
        return internalError(raw, decoded, cause, requestId);
    }

    private HttpResponseData internalError(HttpRequestData raw, ApiRequest decoded, Throwable cause, String requestId) {
        if (!(cause instanceof CancellationException)) {
            LOG.error("Request {} ({}) failed unexpectedly", requestId, decoded == null ? raw.path() : decoded.action(), cause);
        }
        return safeError(raw, decoded, new ApiException("InternalError", "We encountered an internal error. Please try again."), requestId);
    }

    /** Encodes an error; if the codec itself fails, a bare 500 still goes out. */
    private HttpResponseData safeError(HttpRequestData raw, ApiRequest decoded, ApiException error, String requestId) {
        try {
            return codec.encodeError(raw, decoded, error, requestId);
        } catch (RuntimeException e) {
            LOG.error("Request {}: could not encode error {}", requestId, error.errorType(), e);
            return new HttpResponseData(500, JSON,
                    "{\"__type\":\"InternalError\",\"message\":\"internal error\"}".getBytes(StandardCharsets.UTF_8));
        }
    }

    /**
     * /health: 200 "ok", 200 "degraded" while store writes fail (the process is alive and reads work;
     * restarting would not help), 503 "stopping" during shutdown. /health/ready: 200 only when "ok".
     */
    private HttpResponseData health(boolean ready) {
        String body;
        int status;
        String problem = storeProblem.get();
        if (!serving.getAsBoolean()) {
            status = 503;
            body = "{\"status\":\"stopping\"}";
        } else if (problem != null) {
            status = ready ? 503 : 200;
            body = FAILURE_JSON.createObjectNode().put("status", "degraded").put("reason", "store writes failing: " + problem).toString();
        } else {
            status = 200;
            body = "{\"status\":\"ok\"}";
        }
        return new HttpResponseData(status, JSON, body.getBytes(StandardCharsets.UTF_8));
    }

    private static boolean isHealthCheck(HttpRequestData raw) {
        return (raw.path().equals("/health") || raw.path().equals(READY_PATH))
                && (raw.method().equals("GET") || raw.method().equals("HEAD"));
    }

    private static InFlight done(HttpResponseData response) {
        return new InFlight(CompletableFuture.completedFuture(response), null);
    }

    private static Throwable unwrap(Throwable t) {
        Throwable cur = t;
        while ((cur instanceof CompletionException || cur instanceof ExecutionException) && cur.getCause() != null) {
            cur = cur.getCause();
        }
        return cur;
    }
}
