package io.hikyaku.api;

import io.hikyaku.engine.QueueEngine;
import io.hikyaku.engine.QueueRef;
import io.hikyaku.engine.RedrivePolicy;
import io.hikyaku.protocol.ApiException;
import io.hikyaku.protocol.ApiRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Resolves an SQS request's target once, through the operation table ({@link SqsOperations}) and the
 * one address parser ({@link QueueAddress}), reading the request's fields as the actions read them
 * ({@link Input}). The actions then act on {@link ResolvedRequest#requireQueue()}, so the queue
 * authorized is by construction the queue acted on.
 */
public final class SqsRequests {

    private SqsRequests() {}

    /**
     * @param caller the caller's context (its account: bare names, CreateQueue, ListQueues; the default account: ElasticMQ URLs)
     * @throws ApiException InvalidAction when the operation is not in the table
     */
    public static ResolvedRequest resolve(ApiRequest request, CallContext caller) {
        SqsOperations.Operation op = SqsOperations.find(request.action());
        if (op == null) {
            throw Errors.invalidAction(request.action() == null ? "" : request.action());
        }
        Input in = new Input(request.input(), request.protocol(), caller);
        String callerAccount = caller == null ? null : caller.accountId();
        String defaultAccount = caller == null ? null : caller.defaultAccountId();
        List<ResolvedRequest.Check> checks = new ArrayList<>(2);
        QueueRef queue = null;
        ApiException unresolved = null;
        String account = callerAccount;
        try {
            switch (op.addressing()) {
                case ACCOUNT -> checks.add(new ResolvedRequest.Check(op.iamAction(), callerAccount, null));
                case NEW_QUEUE -> {
                    queue = new QueueRef(callerAccount, in.requiredString("QueueName"));
                    checks.add(check(op, queue));
                    if (!in.stringMap("tags").isEmpty() || !in.stringMap("Tags").isEmpty()) {
                        checks.add(new ResolvedRequest.Check("sqs:TagQueue", queue.accountId(), queue.name()));
                    }
                }
                case QUEUE_NAME -> {
                    String owner = in.string("QueueOwnerAWSAccountId");
                    queue = new QueueRef(owner == null || owner.isEmpty() ? callerAccount : owner, in.requiredString("QueueName"));
                    checks.add(check(op, queue));
                }
                case QUEUE_URL -> {
                    queue = QueueAddress.resolve(in.string("QueueUrl"), request.path(), callerAccount, defaultAccount);
                    checks.add(check(op, queue));
                }
                case SOURCE_ARN -> {
                    Optional<QueueRef> source = QueueAddress.parseArn(in.string("SourceArn"));
                    source.ifPresent(q -> checks.add(check(op, q)));
                    QueueAddress.parseArn(in.string("DestinationArn"))
                            .ifPresent(q -> checks.add(new ResolvedRequest.Check("sqs:SendMessage", q.accountId(), q.name())));
                    account = source.map(QueueRef::accountId).orElse(callerAccount);
                }
                case TASK_HANDLE -> {
                    Optional<QueueRef> source = QueueAddress.parseArn(QueueEngine.sourceArnOfTaskHandle(in.string("TaskHandle")));
                    source.ifPresent(q -> checks.add(check(op, q)));
                    account = source.map(QueueRef::accountId).orElse(callerAccount);
                }
            }
            if (op.redrive() && queue != null) {
                redriveCheck(op, in, queue).ifPresent(checks::add);
            }
        } catch (ApiException e) {
            queue = null; // the action answers it: nothing is acted on
            unresolved = e;
            checks.clear();
        }
        if (queue != null && queue.accountId() != null) {
            account = queue.accountId();
        }
        return new ResolvedRequest(request, op, queue, unresolved, List.copyOf(checks), account);
    }

    private static ResolvedRequest.Check check(SqsOperations.Operation op, QueueRef queue) {
        return new ResolvedRequest.Check(op.iamAction(), queue.accountId(), queue.name());
    }

    /**
     * A RedrivePolicy whose dead-letter queue is in another account is checked as the operation on that
     * queue, which (the operation being owner-only) is always refused: a dead-letter queue must be in
     * the queue's account. Parsed by the very parser the action uses; one it refuses is its to answer.
     */
    private static Optional<ResolvedRequest.Check> redriveCheck(SqsOperations.Operation op, Input in, QueueRef queue) {
        Map<String, String> attributes = in.stringMap("Attributes");
        String text = attributes.get("RedrivePolicy");
        if (text == null || text.isEmpty()) {
            return Optional.empty();
        }
        RedrivePolicy redrive;
        try {
            redrive = QueueAttributesReader.redrivePolicy(text);
        } catch (ApiException malformed) {
            return Optional.empty();
        }
        return QueueAddress.parseArn(redrive.deadLetterTargetArn())
                .filter(dlq -> !dlq.accountId().equals(queue.accountId()))
                .map(dlq -> new ResolvedRequest.Check(op.iamAction(), dlq.accountId(), dlq.name()));
    }
}
