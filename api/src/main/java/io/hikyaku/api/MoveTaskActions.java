package io.hikyaku.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.engine.command.Command;
import io.hikyaku.engine.MoveTaskInfo;
import io.hikyaku.engine.StartMoveTask;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** StartMessageMoveTask, ListMessageMoveTasks, CancelMessageMoveTask. */
final class MoveTaskActions {

    private static final String RATE_REASON = "Must be between 1 and 500, if provided.";
    private static final String MAX_RESULTS_REASON = "Must be between 1 and 10, if provided.";

    private final EngineGate gate;
    private final Ids ids;

    MoveTaskActions(EngineGate gate, Ids ids) {
        this.gate = gate;
        this.ids = ids;
    }

    CompletableFuture<ObjectNode> start(Input in) {
        String source = in.requiredString("SourceArn");
        String destination = in.string("DestinationArn");
        Long rate = in.integer("MaxNumberOfMessagesPerSecond", RATE_REASON);
        if (rate != null && (rate < 1 || rate > 500)) {
            throw Errors.invalidValue("MaxNumberOfMessagesPerSecond", rate, RATE_REASON);
        }
        String target = destination == null || destination.isEmpty() ? null : destination;
        Integer perSecond = rate == null ? null : (int) (long) rate;
        String taskId = ids.uuid();
        return gate.write((engine, now) -> gate.<String>apply(new Command.StartMoveTask(new StartMoveTask(source, target, perSecond, taskId, now))))
                .thenApply(handle -> Json.object().put("TaskHandle", handle));
    }

    CompletableFuture<ObjectNode> list(Input in) {
        String source = in.requiredString("SourceArn");
        Long max = in.integer("MaxResults", MAX_RESULTS_REASON);
        if (max != null && (max < 1 || max > 10)) {
            throw Errors.invalidValue("MaxResults", max, MAX_RESULTS_REASON);
        }
        Integer maxResults = max == null ? null : (int) (long) max;
        List<MoveTaskInfo> tasks = gate.read((engine, now) -> engine.listMessageMoveTasks(source, maxResults));
        ObjectNode out = Json.object();
        ArrayNode results = out.putArray("Results");
        for (MoveTaskInfo t : tasks) {
            ObjectNode r = results.addObject();
            Json.putIfPresent(r, "TaskHandle", t.taskHandle());
            r.put("Status", t.status());
            r.put("SourceArn", t.sourceArn());
            Json.putIfPresent(r, "DestinationArn", t.destinationArn());
            if (t.maxMessagesPerSecond() != null) {
                r.put("MaxNumberOfMessagesPerSecond", t.maxMessagesPerSecond());
            }
            r.put("ApproximateNumberOfMessagesMoved", t.approximateNumberOfMessagesMoved());
            r.put("ApproximateNumberOfMessagesToMove", t.approximateNumberOfMessagesToMove());
            Json.putIfPresent(r, "FailureReason", t.failureReason());
            r.put("StartedTimestamp", t.startedTimestamp());
        }
        return gate.afterWrites(out);
    }

    CompletableFuture<ObjectNode> cancel(Input in) {
        String handle = in.requiredString("TaskHandle");
        return gate.write((engine, now) -> gate.<Long>apply(new Command.CancelMoveTask(handle, now)))
                .thenApply(moved -> Json.object().put("ApproximateNumberOfMessagesMoved", moved));
    }
}
