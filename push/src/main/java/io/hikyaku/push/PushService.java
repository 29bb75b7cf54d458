package io.hikyaku.push;

import io.hikyaku.api.SqsService;
import java.time.Clock;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Push delivery as a whole: the functions of the config file, the event source mappings (Lambda API,
 * stored in a {@link MappingStore}) and their pollers, which use the SQS service in-process.
 * {@link #close()} stops the pollers; it must run before the SQS service closes.
 */
public final class PushService implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(PushService.class);
    /** How often the per-mapping counters are logged (only mappings that did something). */
    private static final long SUMMARY_SECONDS = 60;

    private final Delivery delivery;
    private final EventSourceMappings mappings;
    private final ExecutorService apiExecutor;
    private final LambdaApi api;
    private final Map<String, Long> lastLogged = new HashMap<>();

    private final Functions functions;

    private PushService(Delivery delivery, EventSourceMappings mappings, ExecutorService apiExecutor, Functions functions) {
        this.functions = functions;
        this.delivery = delivery;
        this.mappings = mappings;
        this.apiExecutor = apiExecutor;
        this.api = new LambdaApi(mappings, apiExecutor);
    }

    /**
     * Loads the stored mappings, applies the config file's declared ones (in {@code defaultAccount}) and
     * starts polling. A declared mapping that Lambda would refuse stops the start with its error.
     */
    public static PushService start(PushConfig config, SqsService sqs, MappingStore store, Clock clock, String region,
                                    String defaultAccount) {
        return start(config, sqs, store, clock, region, defaultAccount, QueueAccess.ANY);
    }

    /**
     * As above; {@code access} decides which queues a mapping's account may poll (pollers act in the
     * account that created the mapping, in-process, so the server's access rule is applied here).
     */
    public static PushService start(PushConfig config, SqsService sqs, MappingStore store, Clock clock, String region,
                                    String defaultAccount, QueueAccess access) {
        Functions functions = new Functions(config.functions(), region, defaultAccount);
        Delivery delivery = new Delivery(new QueueClient(sqs, region), clock);
        ExecutorService apiExecutor = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "hikyaku-lambda-api");
            t.setDaemon(true);
            return t;
        });
        EventSourceMappings mappings = new EventSourceMappings(functions, store, new QueueClient(sqs, region), delivery, clock, region, access);
        PushService service = new PushService(delivery, mappings, apiExecutor, functions);
        try {
            mappings.loadAndStart();
            for (DeclaredMapping d : config.mappings()) {
                try {
                    mappings.declare(defaultAccount, d);
                } catch (LambdaException e) {
                    throw new IllegalStateException((d.origin() == null ? "" : d.origin() + ": ")
                            + "event source mapping of function " + d.request().path("FunctionName").asText()
                            + (d.queueName() == null ? "" : " and queue " + d.queueName()) + ": " + e.errorType() + ": " + e.getMessage(), e);
                }
            }
        } catch (RuntimeException e) {
            service.close();
            throw e;
        }
        delivery.scheduler().scheduleAtFixedRate(service::logSummary, SUMMARY_SECONDS, SUMMARY_SECONDS, TimeUnit.SECONDS);
        return service;
    }

    public LambdaApi api() {
        return api;
    }

    /** What became of one invocation for another service (SNS's lambda subscriptions). */
    public enum InvokeOutcome { DELIVERED, NO_SUCH_FUNCTION, FAILED }

    /**
     * Invokes the function a full function ARN names (in the ARN's account, the server's region) with {@code event},
     * as SNS's lambda subscriptions do: the same HTTP call, timeout and signature as a mapping's invocation, with
     * {@code source} (the subscription ARN) in the header that names a mapping's UUID for mapping calls. A 2xx is
     * DELIVERED; an error answer, a timeout or no answer is FAILED.
     */
    public CompletableFuture<InvokeOutcome> invokeFunction(String functionArn, String source, byte[] event) {
        String[] parts = functionArn.split(":", -1);
        String account = parts.length == 7 ? parts[4] : "";
        String name = functions.nameOf(account, functionArn);
        FunctionConfig function = name == null ? null : functions.get(account, name).orElse(null);
        if (function == null) {
            return CompletableFuture.completedFuture(InvokeOutcome.NO_SUCH_FUNCTION);
        }
        return delivery.invoker().invoke(function, source, event)
                .thenApply(r -> r.ok() ? InvokeOutcome.DELIVERED : InvokeOutcome.FAILED);
    }

    /** Every mapping's counters, for a metrics exporter. */
    public Collection<MappingMetrics> metrics() {
        return delivery.metrics();
    }

    private void logSummary() {
        for (MappingMetrics m : delivery.metrics()) {
            Long before = lastLogged.put(m.uuid(), m.invocations());
            if (before == null || before != m.invocations()) {
                LOG.info("{}", m);
            }
        }
    }

    @Override
    public void close() {
        delivery.close();
        apiExecutor.shutdownNow();
    }
}
