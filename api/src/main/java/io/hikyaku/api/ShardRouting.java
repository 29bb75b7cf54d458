package io.hikyaku.api;

import io.hikyaku.engine.EngineShard;
import io.hikyaku.engine.QueueEngine;
import io.hikyaku.protocol.ApiRequest;

/**
 * Which engine shard a request goes to: the one owning the account whose queues it acts on
 * ({@link EngineShard}). Read from the request as the actions themselves read it: the queue URL
 * (or the request path) for queue actions, QueueOwnerAWSAccountId for GetQueueUrl, the source ARN
 * or task handle for move tasks, else the caller's own account. A request too malformed to name an
 * account goes to the caller's shard, which answers it with the same error any shard would.
 */
final class ShardRouting {

    private ShardRouting() {}

    static int shardOf(CallContext caller, ApiRequest request, Input in, int shards) {
        if (shards == 1) {
            return 0;
        }
        String account;
        try {
            account = accountOf(caller, request, in);
        } catch (RuntimeException malformed) {
            account = null;
        }
        if (account == null) {
            account = caller == null ? "" : caller.accountId();
        }
        return EngineShard.of(account, shards);
    }

    private static String accountOf(CallContext caller, ApiRequest request, Input in) {
        String action = request.action() == null ? "" : request.action();
        switch (action) {
            case "CreateQueue", "ListQueues":
                return caller == null ? null : caller.accountId();
            case "GetQueueUrl": {
                String owner = in.string("QueueOwnerAWSAccountId");
                return owner != null && !owner.isEmpty() ? owner : caller == null ? null : caller.accountId();
            }
            case "StartMessageMoveTask", "ListMessageMoveTasks":
                return QueueUrls.parseArn(in.string("SourceArn")).map(q -> q.accountId()).orElse(null);
            case "CancelMessageMoveTask":
                return QueueEngine.accountOfTaskHandle(in.string("TaskHandle"));
            default:
                return QueueUrls.resolve(in, request.path()).accountId();
        }
    }
}
