package io.hikyaku.identity;

import java.time.Instant;
import java.util.Objects;

/**
 * The facts about one request that authorization decides on, beside the action and the resource:
 * the verified principal and the global condition keys a self-hosted server knows
 * ({@code aws:SourceIp}, {@code aws:SecureTransport}, {@code aws:CurrentTime} / {@code aws:EpochTime},
 * {@code aws:UserAgent}). Built by the server once the request is authenticated.
 *
 * @param principal       who is calling (never null; {@link Principal#anonymous()} when unsigned)
 * @param sourceIp        the peer's IP address as text, or null when unknown
 * @param secureTransport the request came over TLS
 * @param currentTime     the server's time when the request was authenticated
 * @param userAgent       the User-Agent header, or null
 */
public record RequestContext(Principal principal, String sourceIp, boolean secureTransport, Instant currentTime, String userAgent) {

    public RequestContext {
        Objects.requireNonNull(principal, "principal");
        Objects.requireNonNull(currentTime, "currentTime");
    }
}
