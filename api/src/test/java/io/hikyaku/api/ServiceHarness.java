package io.hikyaku.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.engine.store.MemoryStore;
import io.hikyaku.protocol.ApiException;
import io.hikyaku.protocol.ApiRequest;
import io.hikyaku.protocol.WireProtocol;
import io.hikyaku.testsupport.MutableClock;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** A service over a MemoryStore and a fake clock, called with JSON-shaped inputs. */
final class ServiceHarness implements AutoCloseable {

    static final String ACCOUNT = "000000000000";
    static final String BASE = "http://localhost:9324";
    static final ObjectMapper JSON = new ObjectMapper();

    final MutableClock clock = new MutableClock(Instant.ofEpochMilli(1_700_000_000_000L));
    final SqsService service = SqsServices.create(new MemoryStore(), clock);
    final CallContext context = new CallContext(ACCOUNT, "us-east-1", BASE, null, "req-1");

    static ObjectNode parse(String json) {
        try {
            return (ObjectNode) JSON.readTree(json);
        } catch (Exception e) {
            throw new IllegalArgumentException(json, e);
        }
    }

    /** Invokes the action and returns once the engine thread has run it (a long poll is then parked). */
    CompletableFuture<ObjectNode> start(String action, String json) {
        return applied(service.invoke(context, new ApiRequest(action, parse(json), WireProtocol.JSON, false, "/")));
    }

    CompletableFuture<ObjectNode> startQuery(String action, String json, String path) {
        return applied(service.invoke(context, new ApiRequest(action, parse(json), WireProtocol.QUERY, false, path)));
    }

    private CompletableFuture<ObjectNode> applied(CompletableFuture<ObjectNode> call) {
        ((DefaultSqsService) service).awaitInvoked();
        return call;
    }

    ObjectNode call(String action, String json) {
        return await(start(action, json));
    }

    ObjectNode query(String action, String json) {
        return await(startQuery(action, json, "/"));
    }

    ApiException error(String action, String json) {
        return awaitError(start(action, json));
    }

    static ObjectNode await(CompletableFuture<ObjectNode> f) {
        try {
            return f.get(5, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new AssertionError("call failed: " + e.getCause(), e.getCause());
        } catch (InterruptedException | TimeoutException e) {
            throw new AssertionError("call did not complete", e);
        }
    }

    static ApiException awaitError(CompletableFuture<ObjectNode> f) {
        try {
            ObjectNode result = f.get(5, TimeUnit.SECONDS);
            return fail("expected an error, got " + result);
        } catch (ExecutionException e) {
            assertThat(e.getCause()).isInstanceOf(ApiException.class);
            return (ApiException) e.getCause();
        } catch (InterruptedException | TimeoutException e) {
            throw new AssertionError("call did not complete", e);
        }
    }

    /** Creates a queue and returns its URL. */
    String createQueue(String name, String attributesJson) {
        String attrs = attributesJson == null ? "" : ",\"Attributes\":" + attributesJson;
        return call("CreateQueue", "{\"QueueName\":\"" + name + "\"" + attrs + "}").get("QueueUrl").asText();
    }

    ObjectNode send(String url, String body) {
        return call("SendMessage", "{\"QueueUrl\":\"" + url + "\",\"MessageBody\":\"" + body + "\"}");
    }

    ObjectNode receive(String url, String extra) {
        return call("ReceiveMessage", "{\"QueueUrl\":\"" + url + "\"" + (extra == null ? "" : "," + extra) + "}");
    }

    /** Waits (bounded) until {@code f} completes; the timer thread reacts within tens of ms. */
    static ObjectNode eventually(CompletableFuture<ObjectNode> f) {
        return await(f);
    }

    @Override
    public void close() {
        service.close();
    }
}
