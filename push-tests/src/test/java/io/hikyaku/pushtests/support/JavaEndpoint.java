package io.hikyaku.pushtests.support;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import com.amazonaws.services.lambda.runtime.serialization.PojoSerializer;
import com.amazonaws.services.lambda.runtime.serialization.events.LambdaEventSerializers;
import com.amazonaws.services.lambda.runtime.serialization.factories.JacksonFactory;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.hikyaku.push.RequestSigner;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A Lambda-style handler behind a tiny HTTP adapter (the JDK's HttpServer on 127.0.0.1): the body is
 * turned into AWS's own {@link SQSEvent} by the serializer Lambda's Java runtime uses, the handler's
 * {@link SQSBatchResponse} is written back the same way, and a thrown exception becomes a 500, as an
 * unhandled exception is a function error in Lambda. Records every event and the concurrency it saw.
 */
public final class JavaEndpoint implements AutoCloseable {

    /** A Lambda handler: {@code handleRequest(SQSEvent, Context)} without the context. */
    public interface Handler {
        SQSBatchResponse handle(SQSEvent event) throws Exception;
    }

    private static final PojoSerializer<SQSEvent> EVENTS =
            LambdaEventSerializers.serializerFor(SQSEvent.class, JavaEndpoint.class.getClassLoader());
    private static final PojoSerializer<SQSBatchResponse> RESPONSES = JacksonFactory.getInstance().getSerializer(SQSBatchResponse.class);

    private final HttpServer server;
    private final ExecutorService threads = Executors.newFixedThreadPool(16);
    private final String signingSecret;
    private final List<SQSEvent> events = new ArrayList<>();
    private final List<String> rawEvents = new ArrayList<>();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger maxInFlight = new AtomicInteger();
    private final AtomicInteger badSignatures = new AtomicInteger();
    private volatile Handler handler = event -> new SQSBatchResponse(List.of());

    public JavaEndpoint(String signingSecret) throws IOException {
        this.signingSecret = signingSecret;
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/invoke", this::serve);
        server.setExecutor(threads);
        server.start();
    }

    public URI url() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/invoke");
    }

    public void handler(Handler h) {
        this.handler = h;
    }

    /** The records received for {@code queueArn}, in arrival order, one list per invocation. */
    public synchronized List<List<SQSEvent.SQSMessage>> invocationsFor(String queueArn) {
        List<List<SQSEvent.SQSMessage>> out = new ArrayList<>();
        for (SQSEvent e : events) {
            if (!e.getRecords().isEmpty() && e.getRecords().get(0).getEventSourceArn().equals(queueArn)) {
                out.add(e.getRecords());
            }
        }
        return out;
    }

    public List<SQSEvent.SQSMessage> recordsFor(String queueArn) {
        List<SQSEvent.SQSMessage> out = new ArrayList<>();
        invocationsFor(queueArn).forEach(out::addAll);
        return out;
    }

    public synchronized List<String> rawEvents() {
        return List.copyOf(rawEvents);
    }

    public int maxInFlight() {
        return maxInFlight.get();
    }

    public void resetMaxInFlight() {
        maxInFlight.set(0);
    }

    public int badSignatures() {
        return badSignatures.get();
    }

    private void serve(HttpExchange exchange) throws IOException {
        int now = inFlight.incrementAndGet();
        maxInFlight.accumulateAndGet(now, Math::max);
        try (exchange) {
            byte[] body = readAll(exchange.getRequestBody());
            if (signingSecret != null) {
                String ts = exchange.getRequestHeaders().getFirst(RequestSigner.TIMESTAMP_HEADER);
                String sig = exchange.getRequestHeaders().getFirst(RequestSigner.SIGNATURE_HEADER);
                if (ts == null || sig == null || !sig.equals(RequestSigner.signature(signingSecret, Long.parseLong(ts), body))) {
                    badSignatures.incrementAndGet();
                    reply(exchange, 401, "{\"message\":\"bad signature\"}".getBytes(StandardCharsets.UTF_8));
                    return;
                }
            }
            SQSEvent event = EVENTS.fromJson(new String(body, StandardCharsets.UTF_8));
            synchronized (this) {
                events.add(event);
                rawEvents.add(new String(body, StandardCharsets.UTF_8));
            }
            SQSBatchResponse response;
            try {
                response = handler.handle(event);
            } catch (Exception e) {
                reply(exchange, 500, ("{\"errorMessage\":\"" + e.getMessage() + "\"}").getBytes(StandardCharsets.UTF_8));
                return;
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            if (response != null) {
                RESPONSES.toJson(response, out);
            }
            reply(exchange, 200, out.toByteArray());
        } finally {
            inFlight.decrementAndGet();
        }
    }

    private static void reply(HttpExchange exchange, int status, byte[] body) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        if (body.length > 0) {
            try (OutputStream os = exchange.getResponseBody()) {
                os.write(body);
            }
        }
    }

    private static byte[] readAll(InputStream in) throws IOException {
        return in.readAllBytes();
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
