package io.hikyaku.identity;

import java.time.Instant;
import java.util.Objects;

/**
 * An access key and what it stands for: the secret that signs with it, the principal it
 * authenticates as and, for temporary (STS) keys, the session token that must accompany it and the
 * moment it stops working.
 *
 * @param accessKeyId  e.g. {@code AKIA...} (long-term) or {@code ASIA...} (temporary)
 * @param secret       the secret access key
 * @param principal    who a request signed with this key is
 * @param sessionToken required session token (temporary keys), else null
 * @param expiration   end of validity (temporary keys), else null
 */
public record Credential(String accessKeyId, Secret secret, Principal principal, Secret sessionToken, Instant expiration) {

    public Credential {
        Objects.requireNonNull(accessKeyId, "accessKeyId");
        Objects.requireNonNull(secret, "secret");
        Objects.requireNonNull(principal, "principal");
    }

    public static Credential longTerm(String accessKeyId, Secret secret, Principal principal) {
        return new Credential(accessKeyId, secret, principal, null, null);
    }

    public boolean temporary() {
        return sessionToken != null;
    }

    @Override
    public String toString() {
        return "Credential[" + accessKeyId + " -> " + principal.arn() + (expiration == null ? "" : ", expires " + expiration) + "]";
    }
}
