package io.hikyaku.push;

import java.io.ByteArrayOutputStream;
import java.net.ConnectException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * POSTs an event to a function's URL with the JDK's HttpClient (HTTP/1.1), bounded by the function's
 * timeout; reads at most {@link #MAX_RESPONSE_BYTES} of the answer (Lambda's 6 MB response limit).
 */
final class FunctionInvoker implements AutoCloseable {

    static final int MAX_RESPONSE_BYTES = 6 * 1024 * 1024;

    /**
     * The answer, or why there is none.
     *
     * @param status  the HTTP status, or 0 when there was no answer
     * @param body    the answer's body (empty when none)
     * @param failure null, or why the call failed (timeout, connection refused, answer too large)
     */
    record Result(int status, byte[] body, String failure) {
        boolean ok() {
            return failure == null && status >= 200 && status < 300;
        }

        String describe() {
            return failure != null ? failure : "HTTP " + status;
        }
    }

    private final HttpClient client;
    private final Clock clock;

    FunctionInvoker(Clock clock) {
        this.clock = clock;
        this.client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5))
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
    }

    CompletableFuture<Result> invoke(FunctionConfig function, String mappingUuid, byte[] event) {
        HttpRequest.Builder request = HttpRequest.newBuilder(function.url())
                .timeout(Duration.ofSeconds(function.timeoutSeconds()))
                .header("Content-Type", "application/json")
                .header(RequestSigner.MAPPING_HEADER, mappingUuid)
                .POST(HttpRequest.BodyPublishers.ofByteArray(event));
        function.headers().forEach(request::header);
        if (function.signingSecret() != null) {
            long now = clock.millis() / 1000;
            request.header(RequestSigner.TIMESTAMP_HEADER, Long.toString(now));
            request.header(RequestSigner.SIGNATURE_HEADER, RequestSigner.signature(function.signingSecret(), now, event));
        }
        CompletableFuture<HttpResponse<byte[]>> call;
        try {
            call = client.sendAsync(request.build(), info -> new BoundedBody(MAX_RESPONSE_BYTES));
        } catch (RuntimeException e) {
            return CompletableFuture.completedFuture(new Result(0, new byte[0], "cannot call " + function.url() + ": " + e.getMessage()));
        }
        // the request timeout covers the answer's headers; this covers its body too
        return call.orTimeout(function.timeoutSeconds() * 1000L + 250, TimeUnit.MILLISECONDS)
                .handle((response, error) -> {
                    if (error == null) {
                        return new Result(response.statusCode(), response.body(), null);
                    }
                    Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
                    if (cause instanceof HttpTimeoutException || cause instanceof TimeoutException) {
                        call.cancel(true);
                        return new Result(0, new byte[0], "timed out after " + function.timeoutSeconds() + " s");
                    }
                    if (cause instanceof ConnectException) {
                        return new Result(0, new byte[0], "connection refused by " + function.url());
                    }
                    return new Result(0, new byte[0], cause.getClass().getSimpleName()
                            + (cause.getMessage() == null ? "" : ": " + cause.getMessage()));
                });
    }

    @Override
    public void close() {
        // JDK 17's HttpClient has no close(); its threads are daemons and end with the client's last reference
    }

    /** Collects a body up to a limit; a longer body fails the call instead of filling the heap. */
    private static final class BoundedBody implements HttpResponse.BodySubscriber<byte[]> {
        private final int limit;
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        private final CompletableFuture<byte[]> result = new CompletableFuture<>();
        private Flow.Subscription subscription;

        BoundedBody(int limit) {
            this.limit = limit;
        }

        @Override
        public CompletionStage<byte[]> getBody() {
            return result;
        }

        @Override
        public void onSubscribe(Flow.Subscription s) {
            subscription = s;
            s.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(List<ByteBuffer> items) {
            for (ByteBuffer b : items) {
                if (bytes.size() + b.remaining() > limit) {
                    subscription.cancel();
                    result.completeExceptionally(new IllegalStateException("the answer is larger than " + limit + " bytes"));
                    return;
                }
                byte[] chunk = new byte[b.remaining()];
                b.get(chunk);
                bytes.write(chunk, 0, chunk.length);
            }
        }

        @Override
        public void onError(Throwable t) {
            result.completeExceptionally(t);
        }

        @Override
        public void onComplete() {
            result.complete(bytes.toByteArray());
        }
    }
}
