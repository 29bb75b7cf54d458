package io.hikyaku.identity.sts;

import io.hikyaku.identity.Credential;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The temporary credentials STS has issued, in memory (they do not survive a restart: clients
 * then get InvalidClientTokenId and assume the role again). An expired session is kept for a day
 * after its expiration so that its use is answered {@code ExpiredToken}, not "unknown key"; the
 * number of live sessions is bounded.
 */
public final class Sessions {

    /** At most this many sessions at once; AssumeRole / GetSessionToken beyond it are refused. */
    public static final int MAX_SESSIONS = 100_000;
    static final Duration KEEP_AFTER_EXPIRY = Duration.ofDays(1);

    private final ConcurrentHashMap<String, Credential> byKeyId = new ConcurrentHashMap<>();
    private final Clock clock;

    public Sessions(Clock clock) {
        this.clock = clock;
    }

    public Optional<Credential> find(String accessKeyId) {
        return Optional.ofNullable(byKeyId.get(accessKeyId));
    }

    /** @return false when the store is full even after dropping long-expired sessions */
    boolean add(Credential session) {
        if (byKeyId.size() >= MAX_SESSIONS) {
            Instant cutoff = clock.instant().minus(KEEP_AFTER_EXPIRY);
            byKeyId.values().removeIf(c -> c.expiration().isBefore(cutoff));
            if (byKeyId.size() >= MAX_SESSIONS) {
                return false;
            }
        }
        byKeyId.put(session.accessKeyId(), session);
        return true;
    }

    public int size() {
        return byKeyId.size();
    }
}
