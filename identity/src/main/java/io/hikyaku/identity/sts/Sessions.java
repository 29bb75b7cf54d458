package io.hikyaku.identity.sts;

import io.hikyaku.identity.Credential;
import io.hikyaku.identity.Identities;
import io.hikyaku.identity.Principal;
import io.hikyaku.identity.Role;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The temporary credentials STS has issued, in memory (they do not survive a restart: clients then
 * get InvalidClientTokenId and assume the role again).
 *
 * <p>Live sessions are bounded three ways, so that one caller cannot lock STS for everybody: per
 * calling principal, per calling account and in total. A session stops counting the moment it
 * expires (on the injected clock); it is then remembered, without counting, for a day (at most
 * {@link #MAX_EXPIRED_REMEMBERED} of them) so that its use is answered {@code ExpiredToken}, not
 * "unknown key".
 */
public final class Sessions {

    /** At most this many live sessions in all (a bound on memory). */
    public static final int MAX_SESSIONS = 100_000;
    /** At most this many live sessions requested by principals of one account. */
    public static final int MAX_PER_ACCOUNT = 10_000;
    /** At most this many live sessions requested by one principal (user, root, role session). */
    public static final int MAX_PER_PRINCIPAL = 1_000;
    /** Expired sessions remembered to answer ExpiredToken, oldest forgotten first. */
    public static final int MAX_EXPIRED_REMEMBERED = 100_000;
    static final Duration KEEP_AFTER_EXPIRY = Duration.ofDays(1);
    /** Role chaining depth followed when checking that a session's parents still exist. */
    private static final int MAX_CHAIN = 16;

    private final ConcurrentHashMap<String, Session> byKeyId = new ConcurrentHashMap<>();
    private final Clock clock;
    // guarded by this: the live sessions by expiration, their counts, and the remembered expired ones in expiry order
    private final PriorityQueue<Session> live = new PriorityQueue<>(Comparator.comparing((Session s) -> s.credential().expiration()));
    private final Map<String, Integer> perAccount = new HashMap<>();
    private final Map<String, Integer> perPrincipal = new HashMap<>();
    private final ArrayDeque<Session> expired = new ArrayDeque<>();

    public Sessions(Clock clock) {
        this.clock = clock;
    }

    /** The session with this key id, live or recently expired, whatever the identities in force. */
    public Optional<Credential> find(String accessKeyId) {
        return session(accessKeyId).map(Session::credential);
    }

    public Optional<Session> session(String accessKeyId) {
        return accessKeyId == null ? Optional.empty() : Optional.ofNullable(byKeyId.get(accessKeyId));
    }

    /**
     * The session's credential as the identities in force see it: empty when the key that asked for it
     * (or, for a chained session, any key up the chain) or its role is no longer configured; else the
     * credential with the principal's policies as configured now (the parent user's, the role's).
     */
    public Optional<Credential> find(String accessKeyId, Identities identities) {
        Session s = accessKeyId == null ? null : byKeyId.get(accessKeyId);
        if (s == null || !backed(s, identities, 0)) {
            return Optional.empty();
        }
        Credential c = s.credential();
        Principal now = currentPrincipal(s, identities);
        return Optional.of(now == c.principal() ? c : new Credential(c.accessKeyId(), c.secret(), now, c.sessionToken(), c.expiration()));
    }

    private boolean backed(Session s, Identities identities, int depth) {
        if (s.roleArn() != null && identities.role(s.roleArn()).isEmpty()) {
            return false;
        }
        if (s.parentKeyId() == null) {
            return true;
        }
        Optional<Credential> longTerm = identities.key(s.parentKeyId());
        if (longTerm.isPresent()) {
            return longTerm.get().principal().arn().equals(s.parentArn());
        }
        Session parent = byKeyId.get(s.parentKeyId());
        return parent != null && depth < MAX_CHAIN && parent.credential().principal().arn().equals(s.parentArn())
                && backed(parent, identities, depth + 1);
    }

    private static Principal currentPrincipal(Session s, Identities identities) {
        Principal p = s.credential().principal();
        if (s.roleArn() != null) {
            Role role = identities.role(s.roleArn()).orElseThrow();
            return role.policies().equals(p.identityPolicies()) ? p
                    : new Principal(p.type(), p.accountId(), p.arn(), p.userId(), p.userName(), p.roleArn(), role.policies(), p.sessionPolicy());
        }
        if (s.fromGetSessionToken() && s.parentKeyId() != null) {
            Optional<Credential> parent = identities.key(s.parentKeyId());
            if (parent.isPresent()) {
                return parent.get().principal(); // GetSessionToken credentials have their user's permissions, as configured now
            }
        }
        return p;
    }

    /** Why {@code add} refused a session. */
    enum Refusal { PRINCIPAL, ACCOUNT, TOTAL }

    /** @return null when added, else the quota that is full (expired sessions never count) */
    synchronized Refusal add(Session session) {
        evictExpired();
        if (session.quotaPrincipal() != null && perPrincipal.getOrDefault(session.quotaPrincipal(), 0) >= MAX_PER_PRINCIPAL) {
            return Refusal.PRINCIPAL;
        }
        if (session.quotaAccount() != null && perAccount.getOrDefault(session.quotaAccount(), 0) >= MAX_PER_ACCOUNT) {
            return Refusal.ACCOUNT;
        }
        if (live.size() >= MAX_SESSIONS) {
            return Refusal.TOTAL;
        }
        byKeyId.put(session.credential().accessKeyId(), session);
        live.add(session);
        if (session.quotaPrincipal() != null) {
            perPrincipal.merge(session.quotaPrincipal(), 1, Integer::sum);
        }
        if (session.quotaAccount() != null) {
            perAccount.merge(session.quotaAccount(), 1, Integer::sum);
        }
        return null;
    }

    private void evictExpired() {
        Instant now = clock.instant();
        while (!live.isEmpty() && !now.isBefore(live.peek().credential().expiration())) {
            Session s = live.poll();
            if (s.quotaPrincipal() != null) {
                perPrincipal.computeIfPresent(s.quotaPrincipal(), (k, n) -> n == 1 ? null : n - 1);
            }
            if (s.quotaAccount() != null) {
                perAccount.computeIfPresent(s.quotaAccount(), (k, n) -> n == 1 ? null : n - 1);
            }
            expired.addLast(s);
        }
        Instant forgetBefore = now.minus(KEEP_AFTER_EXPIRY);
        while (!expired.isEmpty() && (expired.size() > MAX_EXPIRED_REMEMBERED
                || expired.peekFirst().credential().expiration().isBefore(forgetBefore))) {
            byKeyId.remove(expired.pollFirst().credential().accessKeyId());
        }
    }

    /** Live sessions (expired ones evicted first). */
    public synchronized int size() {
        evictExpired();
        return live.size();
    }

    /** Live sessions requested by principals of {@code account}. */
    public synchronized int liveForAccount(String account) {
        evictExpired();
        return perAccount.getOrDefault(account, 0);
    }
}
