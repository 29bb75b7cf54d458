package io.hikyaku.api;

import io.hikyaku.engine.QueueRef;
import io.hikyaku.protocol.ApiException;
import io.hikyaku.protocol.ApiRequest;
import java.util.List;

/**
 * One SQS request with its target resolved once ({@link SqsRequests#resolve}): what authorization
 * checks, which shard runs it, which queue the action acts on, what metrics and the access log name.
 * Nothing downstream parses the request's address again.
 *
 * @param request    the decoded request
 * @param operation  its row of the operation table
 * @param queue      the queue it acts on (null for ListQueues, move tasks, or when it names none)
 * @param unresolved why {@code queue} is null for an operation that needs one (the action answers it), else null
 * @param checks     every IAM check, in order; authorization allows the request only if each is allowed
 * @param account    the account whose engine shard runs it
 */
public record ResolvedRequest(ApiRequest request, SqsOperations.Operation operation, QueueRef queue,
                              ApiException unresolved, List<Check> checks, String account) {

    /** An IAM action on a queue ({@code queueName} null: the account-level resource {@code "*"}). */
    public record Check(String iamAction, String account, String queueName) {}

    /** The queue acted on. @throws ApiException the request's own addressing error when it names none */
    public QueueRef requireQueue() {
        if (queue == null) {
            throw unresolved != null ? unresolved : Errors.missing("QueueUrl");
        }
        return queue;
    }
}
