package io.hikyaku.api;

/**
 * Who is calling and how queue URLs are written back, decided by the server per request.
 *
 * @param accountId   the caller's account (default {@code 000000000000}; a 12-digit access key id
 *                    selects that account)
 * @param region      the region used in ARNs, e.g. {@code us-east-1}
 * @param baseUrl     scheme, host and port that queue URLs start with, no trailing slash, e.g.
 *                    {@code http://localhost:9324}
 * @param traceHeader the {@code X-Amzn-Trace-Id} request header, or null
 * @param requestId   the id the response will carry (x-amzn-RequestId)
 * @param defaultAccountId the server's default account: ElasticMQ-style queue URLs
 *                    ({@code /queue/{name}}) name its queues
 * @param senderId    the SenderId of the messages the caller sends: the principal's unique id when
 *                    authenticated ({@code AIDA...} for a user, {@code AROA...:session} for a role
 *                    session), the account id for an account root or without authentication
 * @param keyCaller   how the caller's use of a KMS key is authorized (SSE-KMS), or null when every use is
 *                    allowed (no authentication)
 * @param sendOnce    for an in-process SendMessage only (the Scheduler's fires): the key that makes it a
 *                    send-once ({@link SendOnceKey}); null for every request from the wire
 */
public record CallContext(String accountId, String region, String baseUrl, String traceHeader, String requestId,
                          String defaultAccountId, String senderId, io.hikyaku.api.sse.KeyCaller keyCaller,
                          SendOnceKey sendOnce) {

    /** A caller without KMS authorization (every key use allowed; the key's state still counts). */
    public CallContext(String accountId, String region, String baseUrl, String traceHeader, String requestId,
                       String defaultAccountId, String senderId) {
        this(accountId, region, baseUrl, traceHeader, requestId, defaultAccountId, senderId, null, null);
    }

    /** A caller with its KMS authorization, sending as usual. */
    public CallContext(String accountId, String region, String baseUrl, String traceHeader, String requestId,
                       String defaultAccountId, String senderId, io.hikyaku.api.sse.KeyCaller keyCaller) {
        this(accountId, region, baseUrl, traceHeader, requestId, defaultAccountId, senderId, keyCaller, null);
    }

    /** This context with the caller's KMS authorization. */
    public CallContext withKeyCaller(io.hikyaku.api.sse.KeyCaller caller) {
        return new CallContext(accountId, region, baseUrl, traceHeader, requestId, defaultAccountId, senderId, caller, sendOnce);
    }

    /** This context for a SendMessage that must happen at most once per {@code key}. */
    public CallContext withSendOnce(SendOnceKey key) {
        return new CallContext(accountId, region, baseUrl, traceHeader, requestId, defaultAccountId, senderId, keyCaller, key);
    }

    public CallContext {
        if (senderId == null) {
            senderId = accountId;
        }
    }

    /** A caller whose SenderId is its account id. */
    public CallContext(String accountId, String region, String baseUrl, String traceHeader, String requestId,
                       String defaultAccountId) {
        this(accountId, region, baseUrl, traceHeader, requestId, defaultAccountId, accountId);
    }

    /** A caller in the default account. */
    public CallContext(String accountId, String region, String baseUrl, String traceHeader, String requestId) {
        this(accountId, region, baseUrl, traceHeader, requestId, accountId);
    }
}
