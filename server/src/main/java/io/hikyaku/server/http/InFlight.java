package io.hikyaku.server.http;

import io.hikyaku.protocol.HttpResponseData;
import java.util.concurrent.CompletableFuture;

/**
 * One request being served.
 *
 * @param response completes with the response to write (never exceptionally)
 * @param call     the service's own future, cancelled when the client goes away so a parked long
 *                 poll can be abandoned; null when the service was not called
 */
public record InFlight(CompletableFuture<HttpResponseData> response, CompletableFuture<?> call) {

    /** Tells the service nobody waits for this call any more. */
    public void abandon() {
        if (call != null && !call.isDone()) {
            call.cancel(false);
        }
    }
}
