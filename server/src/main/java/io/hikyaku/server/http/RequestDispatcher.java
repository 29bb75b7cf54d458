package io.hikyaku.server.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.api.CallContext;
import io.hikyaku.api.ResolvedRequest;
import io.hikyaku.api.SqsRequests;
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
import io.hikyaku.identity.RequestContext;
import io.hikyaku.push.LambdaApi;
import io.hikyaku.server.admin.AdminEndpoint;
import io.hikyaku.cloudwatch.CloudWatch;
import io.hikyaku.metrics.Exchange;
import io.hikyaku.metrics.HikyakuMetrics;
import io.hikyaku.metrics.RequestObserver;
import java.util.List;
import io.hikyaku.console.ConsoleAssets;
import io.hikyaku.server.auth.RequestAuthentication;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Routes one HTTP request: {@code /}, the cross-origin guard, /metrics, /health, /health/ready, the
 * console, /_hikyaku/ admin requests, forwarding in cluster mode, SNS's links; then authentication and
 * the API the request is for ({@link ServiceRoute}); for SQS: decode, resolve, authorize, invoke the
 * service, encode. Free of Netty so it can be tested alone. Never fails: every problem
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
    /** Set once before serving ({@link #observe}); null = no /metrics and no observers. */
    private HikyakuMetrics metrics;
    /** Set once before serving; null = 404. */
    private MetricsEndpoint metricsEndpoint;
    private List<RequestObserver> observers = List.of();
    private String version = "unknown";
    /** The CloudWatch API on the same endpoint; null = none (such requests then reach the SQS codec). */
    private CloudWatch cloudWatch;
    /** The web console's static files; its pages use the public API like any client. */
    private static final ConsoleAssets CONSOLE = new ConsoleAssets();
    /** Authentication, STS and the account check; null = none at all (tests of the bare pipeline). */
    private final RequestAuthentication authentication;
    /** The Lambda event-source-mapping API (push delivery); supplies null while there is none. */
    private Supplier<LambdaApi> lambda = () -> null;
    private CrossOriginGuard crossOrigin = CrossOriginGuard.ORIGIN_ONLY;
    /** Where requests that need a policy evaluated are authorized; null = inline. */
    private io.hikyaku.server.auth.AuthorizationPool authorizations;
    /** SNS topics on the same endpoint; supplies null while there is none. */
    private Supplier<io.hikyaku.sns.SnsApi> sns = () -> null;
    /** The key service on the same endpoint; supplies null while there is none. */
    private Supplier<io.hikyaku.kms.KmsApi> kms = () -> null;

    public RequestDispatcher(ProtocolCodec codec, SqsService service, CallContextFactory contexts, BooleanSupplier serving) {
        this(codec, service, contexts, serving, () -> null, null);
    }

    /**
     * @param storeProblem why store writes fail right now, or null (reported by /health as "degraded")
     * @param admin        the admin endpoint, or null when there is none (admin paths then get 404)
     */
    public RequestDispatcher(ProtocolCodec codec, SqsService service, CallContextFactory contexts, BooleanSupplier serving,
                             Supplier<String> storeProblem, AdminEndpoint admin) {
        this(codec, service, contexts, serving, storeProblem, admin, null);
    }

    /** @param authentication authenticates each request and answers STS; null to trust every request */
    public RequestDispatcher(ProtocolCodec codec, SqsService service, CallContextFactory contexts, BooleanSupplier serving,
                             Supplier<String> storeProblem, AdminEndpoint admin, RequestAuthentication authentication) {
        this.authentication = authentication;
        this.codec = codec;
        this.service = service;
        this.contexts = contexts;
        this.serving = serving;
        this.storeProblem = storeProblem;
        this.admin = admin;
    }

    /**
     * Serves {@code GET /metrics} from {@code metrics} (may be null) and tells {@code observers} every
     * request's outcome (metrics, the access log). Call before serving.
     */
    public RequestDispatcher observe(HikyakuMetrics metrics, List<RequestObserver> observers, String version) {
        this.metrics = metrics;
        this.observers = List.copyOf(observers);
        this.version = version;
        return this;
    }

    /** Serves the Lambda mapping API (push delivery) through {@code lambda}. Call before serving. */
    public RequestDispatcher lambda(Supplier<LambdaApi> lambda) {
        this.lambda = lambda;
        return this;
    }

    /** Refuses browser requests as {@code guard} says (default: cross-origin ones). Call before serving. */
    public RequestDispatcher crossOrigin(CrossOriginGuard guard) {
        this.crossOrigin = guard;
        return this;
    }

    /** Serves KMS requests (signed for kms, or a TrentService target) through {@code kms}. Call before serving. */
    public RequestDispatcher kms(Supplier<io.hikyaku.kms.KmsApi> kms) {
        this.kms = kms;
        return this;
    }

    /** Serves SNS requests (signed for sns, or Version=2010-03-31) through {@code sns}. Call before serving. */
    public RequestDispatcher sns(Supplier<io.hikyaku.sns.SnsApi> sns) {
        this.sns = sns;
        return this;
    }

    /** Whether {@code GET /_localstack/health} is served (--localstack-parity). */
    private boolean localStackHealth;

    /** Serves LocalStack's health path ({@code --localstack-parity}). Call before serving. */
    public RequestDispatcher localStackHealth(boolean on) {
        this.localStackHealth = on;
        return this;
    }

    /** The services this dispatcher answers, by LocalStack's names (a cluster node has no SNS, KMS or Scheduler). */
    private java.util.LinkedHashMap<String, Boolean> localStackServices() {
        java.util.LinkedHashMap<String, Boolean> served = new java.util.LinkedHashMap<>();
        served.put("cloudwatch", cloudWatch != null);
        served.put("kms", kms.get() != null);
        served.put("scheduler", scheduler.get() != null);
        served.put("sns", sns.get() != null);
        served.put("sqs", true);
        served.put("sts", authentication != null);
        return served;
    }

    /** EventBridge Scheduler on the same endpoint; supplies null while there is none. */
    private Supplier<io.hikyaku.scheduler.SchedulerApi> scheduler = () -> null;

    /** Serves Scheduler requests (signed for scheduler, or its paths) through {@code scheduler}. Call before serving. */
    public RequestDispatcher scheduler(Supplier<io.hikyaku.scheduler.SchedulerApi> scheduler) {
        this.scheduler = scheduler;
        return this;
    }

    /** Evaluates policies on {@code pool} instead of the event loop (null: inline, as tests of the bare pipeline do). Call before serving. */
    public RequestDispatcher authorizeOn(io.hikyaku.server.auth.AuthorizationPool pool) {
        this.authorizations = pool;
        return this;
    }

    /** Serves {@code GET /metrics} through {@code endpoint} (authorization, off the event loop). Call before serving. */
    public RequestDispatcher metricsEndpoint(MetricsEndpoint endpoint) {
        this.metricsEndpoint = endpoint;
        return this;
    }

    /** Serves CloudWatch API requests through {@code cloudWatch} (may be null). Call before serving. */
    public RequestDispatcher cloudWatch(CloudWatch cloudWatch) {
        this.cloudWatch = cloudWatch;
        return this;
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
        return dispatch(raw, requestId, encoder, fromThisHost, null);
    }

    /** @param peer the client's IP address (for the access log and the active-consumer count), or null */
    public InFlight dispatch(HttpRequestData raw, String requestId, Executor encoder, boolean fromThisHost, String peer) {
        return dispatch(raw, requestId, encoder, fromThisHost, peer, false);
    }

    /**
     * Serves a request another cluster node forwarded here, as if it had arrived here; never forwards
     * it again (this node's service refuses it while it is not the ready leader).
     */
    public InFlight dispatchForwarded(HttpRequestData raw, String requestId, Executor encoder, String peer) {
        return dispatch(raw, requestId, encoder, false, peer, true);
    }

    /** In cluster mode: where API requests are served ({@link ClusterRouting}). Call before serving. */
    public RequestDispatcher cluster(io.hikyaku.server.cluster.ClusterRouting routing) {
        this.cluster = routing;
        routing.attach(this);
        return this;
    }

    /** Cluster mode's routing; null: a single node. */
    private io.hikyaku.server.cluster.ClusterRouting cluster;

    private InFlight dispatch(HttpRequestData raw, String requestId, Executor encoder, boolean fromThisHost, String peer,
                              boolean forwarded) {
        if (isRoot(raw)) {
            return done(root());
        }
        // before /metrics, the console, admin and the APIs: no CSRF whatever the auth mode, no DNS rebinding with auth none
        String crossOrigin = this.crossOrigin.refusal(raw);
        if (crossOrigin != null) {
            return done(safeError(raw, null, new ApiException("AccessDenied", crossOrigin), requestId));
        }
        if (isMetrics(raw)) {
            return metricsEndpoint == null ? done(new HttpResponseData(404, JSON, "{\"error\":\"metrics are off\"}".getBytes(StandardCharsets.UTF_8)))
                    : new InFlight(metricsEndpoint.handle(raw), null);
        }
        if (isHealthCheck(raw)) {
            return new InFlight(CompletableFuture.completedFuture(health(raw.path().equals(READY_PATH))), null);
        }
        if (localStackHealth && LocalStackHealth.isRequest(raw)) {
            return done(LocalStackHealth.response(localStackServices(), serving.getAsBoolean(), version));
        }
        if (ConsoleAssets.isConsolePath(raw.path())) {
            return done(CONSOLE.handle(raw));
        }
        if (AdminEndpoint.isAdminPath(raw)) {
            if (admin == null) {
                return done(new HttpResponseData(404, JSON,
                        "{\"error\":\"no admin endpoint (storage memory)\"}".getBytes(StandardCharsets.UTF_8)));
            }
            return new InFlight(admin.handle(raw, fromThisHost), null);
        }
        if (cluster != null && !forwarded) {
            InFlight elsewhere = cluster.route(raw, requestId);
            if (elsewhere != null) {
                return elsewhere;
            }
        }
        if (io.hikyaku.sns.SnsLinks.isLink(raw) && sns.get() != null) { // SubscribeURL, UnsubscribeURL, SigningCertURL: unsigned, as at SNS
            return done(sns.get().handleLink(raw));
        }
        long start = observers.isEmpty() ? 0 : System.nanoTime(); // only observers read it
        RequestContext caller = null;
        String signingService = null;
        if (authentication != null) {
            RequestAuthentication.Outcome outcome;
            try {
                outcome = authentication.authenticate(raw, codec, requestId);
            } catch (RuntimeException e) {
                return done(internalError(raw, null, e, requestId));
            }
            if (outcome.response() != null) { // STS, or a refused authentication: logged like any request
                return done(observed(exchange(start, requestId, null, null, null, raw, peer), outcome.response(), null, null, true));
            }
            caller = outcome.context();
            signingService = outcome.signingService();
        }
        ServiceRoute route = ServiceRoute.of(raw, signingService, cloudWatch == null ? null : cloudWatch::accepts);
        if (route == null) {
            return done(observed(exchange(start, requestId, null, null, caller, raw, peer), safeError(raw, null,
                    new ApiException("SignatureDoesNotMatch", "Credential should be scoped to correct service: '"
                            + ServiceRoute.byShape(raw, cloudWatch == null ? null : cloudWatch::accepts).signingName + "'."),
                    requestId), "SignatureDoesNotMatch", null, false));
        }
        if (route == ServiceRoute.LAMBDA) { // authorized through the Lambda operation table; acts in the caller's account
            HttpResponseData refused = caller == null ? null : authentication.authorizeLambda(caller, raw);
            Exchange lambdaExchange = exchange(start, requestId, null, null, caller, raw, peer);
            if (refused != null) {
                return done(observed(lambdaExchange, refused, refused.headers().get("x-amzn-ErrorType"), null, false));
            }
            LambdaApi api = lambda.get();
            if (api == null) {
                return done(new HttpResponseData(503, Map.of("content-type", "application/json", "x-amzn-ErrorType", "ServiceException"),
                        "{\"Type\":\"Service\",\"message\":\"push delivery is not running\"}".getBytes(StandardCharsets.UTF_8)));
            }
            return new InFlight(api.handle(raw, caller != null && caller.principal().accountId() != null
                    ? caller.principal().accountId() : contexts.create(raw, requestId).accountId())
                    .thenApply(r -> observed(lambdaExchange, r, r.headers().get("x-amzn-ErrorType"), null, true)), null);
        }
        if (route == ServiceRoute.KMS) { // authorized (kms:<Op> on the key) when auth is on; acts in the caller's account
            Exchange kmsExchange = exchange(start, requestId, null, null, caller, raw, peer);
            HttpResponseData answer = KmsRoute.serve(kms.get(), authentication, caller, raw,
                    caller != null && caller.principal().accountId() != null ? caller.principal().accountId()
                            : contexts.create(raw, requestId).accountId());
            return done(observed(kmsExchange, answer, answer.headers().get("x-amzn-ErrorType"), null, false));
        }
        if (route == ServiceRoute.SNS) { // SNS: authorized (sns:*) when auth is on; acts in the caller's account
            io.hikyaku.sns.SnsApi api = sns.get();
            HttpResponseData refused = caller == null ? null
                    : authentication.authorizeSns(caller, raw, arn -> api == null ? null : api.topicPolicy(arn));
            Exchange snsExchange = exchange(start, requestId, null, null, caller, raw, peer);
            if (refused != null || api == null) {
                HttpResponseData answer = refused != null ? refused : new HttpResponseData(503, Map.of("content-type", "text/xml"),
                        "<ErrorResponse><Error><Type>Receiver</Type><Code>ServiceUnavailable</Code><Message>SNS is not running</Message></Error></ErrorResponse>"
                                .getBytes(StandardCharsets.UTF_8));
                return done(observed(snsExchange, answer, null, null, false));
            }
            return new InFlight(api.handle(raw, caller != null && caller.principal().accountId() != null
                    ? caller.principal().accountId() : contexts.create(raw, requestId).accountId())
                    .thenApply(r -> observed(snsExchange, r, null, null, true)), null);
        }
        if (route == ServiceRoute.SCHEDULER) { // authorized (scheduler:*) when auth is on; acts in the caller's account
            HttpResponseData refused = caller == null ? null : authentication.authorizeScheduler(caller, raw);
            io.hikyaku.scheduler.SchedulerApi api = scheduler.get();
            HttpResponseData answer = refused != null ? refused : api == null
                    ? io.hikyaku.scheduler.SchedulerApi.error(new io.hikyaku.scheduler.SchedulerException("InternalServerException", 500, "The Scheduler is not running"))
                    : api.handle(raw, caller != null && caller.principal().accountId() != null
                            ? caller.principal().accountId() : contexts.create(raw, requestId).accountId());
            return done(observed(exchange(start, requestId, null, null, caller, raw, peer), answer,
                    answer.headers().get("x-amzn-ErrorType"), null, refused == null));
        }
        if (route == ServiceRoute.CLOUDWATCH) { // authenticated and authorized (cloudwatch:*) when auth is on
            io.hikyaku.cloudwatch.CloudWatchCaller cw = caller == null ? null : authentication.cloudWatchCaller(caller);
            return done(observed(exchange(start, requestId, null, null, caller, raw, peer),
                    cw != null ? cloudWatch.handle(raw, requestId, cw)
                            : cloudWatch.handle(raw, requestId, contexts.accountOfUnauthenticated(raw)), null, null, true));
        }
        ApiRequest decoded;
        try {
            decoded = codec.decode(raw);
        } catch (ApiException e) {
            return done(observed(exchange(start, requestId, null, null, caller, raw, peer), safeError(raw, null, e, requestId), e.errorType(), null, false));
        } catch (RuntimeException e) {
            return done(observed(exchange(start, requestId, null, null, caller, raw, peer), internalError(raw, null, e, requestId), INTERNAL, null, true));
        }
        Exchange exchange = null;
        CompletableFuture<ObjectNode> call;
        try {
            CallContext context = caller != null ? contexts.create(raw, requestId, caller.principal().accountId(),
                    SenderIds.of(caller.principal()))
                    // SSE-KMS: the caller's kms:GenerateDataKey / kms:Decrypt on the queue's key
                    .withKeyCaller(authentication == null ? null : io.hikyaku.server.sse.KmsKeyCallers.of(authentication, caller))
                    : contexts.create(raw, requestId);
            // The target is resolved once: authorization checks it, the service acts on it, metrics and
            // the access log name it. An operation not in the table is refused here (InvalidAction).
            ResolvedRequest resolved = null;
            try {
                resolved = SqsRequests.resolve(decoded, context);
            } catch (ApiException notInTable) {
                exchange = exchange(start, requestId, decoded, null, caller, raw, peer);
                if (authentication != null) {
                    throw notInTable;
                }
            }
            if (resolved != null) {
                exchange = exchange(start, requestId, decoded, resolved.queue(), caller, raw, peer);
                if (authentication != null && authorizations != null && authentication.needsAuthorizationPool(caller, resolved)) {
                    // Costly policy evaluation never runs on an event loop: one tenant's conditions must not
                    // delay every connection of the loop.
                    ResolvedRequest target = resolved;
                    RequestContext who = caller;
                    call = authorizations.run(() -> {
                        authentication.authorize(who, target);
                        return service.invoke(context, target);
                    });
                } else {
                    if (authentication != null) {
                        authentication.authorize(caller, resolved);
                    }
                    call = service.invoke(context, resolved);
                }
            } else { // the bare pipeline of tests (no authentication at all): a scripted service answers it
                call = service.invoke(context, decoded);
            }
            if (call == null) {
                throw new IllegalStateException("service returned no future for " + decoded.action());
            }
        } catch (ApiException e) {
            return done(observed(exchange, safeError(raw, decoded, e, requestId), e.errorType(), null, false));
        } catch (RuntimeException e) {
            return done(observed(exchange, internalError(raw, decoded, e, requestId), INTERNAL, null, true));
        }
        Exchange observedExchange = exchange;
        // What encoding needs, without the request's headers, body and input tree: a parked long
        // poll keeps this for up to 20 s, so it should hold as little as possible.
        ApiRequest shape = new ApiRequest(decoded.action(), null, decoded.protocol(), decoded.acceptJson(), decoded.path());
        CompletableFuture<HttpResponseData> response =
                call.handleAsync((result, failure) -> encode(observedExchange, shape, result, failure, requestId), encoder);
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

    /** A request refused before its body was read because the server is short of memory for bodies (503). */
    public HttpResponseData unavailable(HttpRequestData head, String reason, String requestId) {
        return safeError(head, null, new ApiException("ServiceUnavailable", reason + "."), requestId);
    }

    private static final String INTERNAL = "InternalError";

    private HttpResponseData encode(Exchange exchange, ApiRequest decoded, ObjectNode result, Throwable failure, String requestId) {
        if (failure == null) {
            try {
                return observed(exchange, codec.encodeResult(decoded, result, requestId), null, result, false);
            } catch (RuntimeException e) {
                return observed(exchange, internalError(null, decoded, e, requestId), INTERNAL, null, true);
            }
        }
        Throwable cause = unwrap(failure);
        if (cause instanceof ApiException api) {
            return observed(exchange, safeError(null, decoded, api, requestId), api.errorType(), null, false);
        }
        return observed(exchange, internalError(null, decoded, cause, requestId), INTERNAL, null, cause instanceof CancellationException ? false : true);
    }

    /**
     * What observers need of a request, or null when nobody observes (the common cheap path). The
     * principal is the verified one (its ARN, or {@code anonymous}) when signatures are verified; with
     * auth none, the access key id the request names (nothing is verified then).
     */
    private Exchange exchange(long start, String requestId, ApiRequest decoded, io.hikyaku.engine.QueueRef queue,
                              RequestContext caller, HttpRequestData raw, String peer) {
        if (observers.isEmpty()) {
            return null;
        }
        String principal;
        if (authentication != null && authentication.enforces()) {
            principal = caller == null || caller.principal().isAnonymous() ? "anonymous" : caller.principal().arn();
        } else {
            principal = CallContextFactory.accessKeyFromAuthorization(raw.header("authorization"));
            if (principal == null) {
                principal = CallContextFactory.accessKeyFromQuery(raw.rawQuery());
            }
        }
        return Exchange.begin(start, requestId, decoded, queue, principal, peer);
    }

    /**
     * Tells the observers and logs a warning for every 5xx answer (the internal errors that were
     * logged with their stack already are not logged twice).
     */
    private HttpResponseData observed(Exchange exchange, HttpResponseData response, String errorCode, ObjectNode result,
                                      boolean logged) {
        if (response.status() >= 500 && !logged) {
            LOG.warn("Request {} ({}) answered {} {}", exchange == null ? "-" : exchange.requestId(),
                    exchange == null ? "-" : exchange.action(), response.status(), errorCode);
        }
        if (exchange != null) {
            long end = System.nanoTime();
            for (RequestObserver o : observers) {
                try {
                    o.completed(exchange, response.status(), errorCode, result, end);
                } catch (RuntimeException e) {
                    LOG.warn("A request observer failed", e);
                }
            }
        }
        return response;
    }

    /** {@code GET /}: what this is and where to look, instead of an SQS error for a missing Action. */
    private HttpResponseData root() {
        String problem = storeProblem.get();
        String status = !serving.getAsBoolean() ? "stopping" : problem != null ? "degraded" : "ok";
        com.fasterxml.jackson.databind.node.ObjectNode body = FAILURE_JSON.createObjectNode()
                .put("service", "hikyaku").put("version", version).put("status", status);
        body.putObject("links").put("health", "/health").put("ready", READY_PATH)
                .put("metrics", metrics == null ? null : "/metrics");
        return new HttpResponseData(200, JSON, body.toString().getBytes(StandardCharsets.UTF_8));
    }

    /** A bare {@code GET /} or {@code HEAD /}; one with a query string is a Query API call. */
    private static boolean isRoot(HttpRequestData raw) {
        return raw.path().equals("/") && (raw.rawQuery() == null || raw.rawQuery().isEmpty())
                && (raw.method().equals("GET") || raw.method().equals("HEAD"));
    }

    private static boolean isMetrics(HttpRequestData raw) {
        return raw.path().equals("/metrics") && (raw.method().equals("GET") || raw.method().equals("HEAD"));
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
        if (cluster != null) {
            body = io.hikyaku.server.cluster.ClusterHealth.addTo(body, cluster.health());
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
