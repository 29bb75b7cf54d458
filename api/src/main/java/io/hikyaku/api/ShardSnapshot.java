package io.hikyaku.api;

import io.hikyaku.engine.IndexUsage;
import io.hikyaku.engine.MoveTaskInfo;
import io.hikyaku.engine.QueueSnapshot;
import java.util.List;

/**
 * What readers outside the applier see of one shard (metrics, the CloudWatch sampler, the start
 * summary): immutable, built by the applier ({@link ShardHost}) and read by any thread without
 * touching the engine.
 *
 * @param queues         every queue's counts
 * @param moveTasks      every known message move task
 * @param indexUsage     the index budget and its use
 * @param parkedReceives long polls waiting
 */
record ShardSnapshot(List<QueueSnapshot> queues, List<MoveTaskInfo> moveTasks, IndexUsage indexUsage,
                     int parkedReceives) {

    ShardSnapshot {
        queues = List.copyOf(queues);
        moveTasks = List.copyOf(moveTasks);
    }
}
