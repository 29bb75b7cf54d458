package io.hikyaku.engine;

import io.hikyaku.engine.store.Keyspace;
import io.hikyaku.engine.store.StoreBatch;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Message move tasks: redrive from a dead-letter queue at up to MaxNumberOfMessagesPerSecond,
 * advanced by tick. A task moves at most {@code rate * elapsed} messages in total and completes
 * once it moved the number of messages visible at its start, or the source has none left.
 */
final class MoveTasks {

    private final QueueEngine engine;
    final Map<String, MoveTask> byId = new LinkedHashMap<>();
    /** RUNNING and CANCELLING tasks: the only ones timers care about. */
    private final Map<String, MoveTask> active = new LinkedHashMap<>();
    private long ordinal;

    MoveTasks(QueueEngine engine) {
        this.engine = engine;
    }

    void loaded(MoveTask t) {
        byId.put(t.taskId, t);
        if (t.active()) {
            active.put(t.taskId, t);
        }
        ordinal = Math.max(ordinal, t.ordinal);
    }

    String start(StartMoveTask c, StoreBatch b) {
        QueueState source = engine.queues.byArn.get(c.sourceArn());
        if (source == null) {
            throw Texts.resourceNotFound(Texts.NO_SOURCE);
        }
        if (!engine.isDeadLetterQueue(source)) {
            throw Texts.invalidParameter(Texts.NOT_A_DLQ);
        }
        if (c.destinationArn() != null && engine.queues.byArn.get(c.destinationArn()) == null) {
            throw Texts.resourceNotFound(Texts.NO_DESTINATION);
        }
        Integer rate = c.maxMessagesPerSecond();
        if (rate != null && (rate < 1 || rate > 500)) {
            throw Texts.invalidValue(rate, "MaxNumberOfMessagesPerSecond", "Must be between 1 and 500, if provided.");
        }
        for (MoveTask t : active.values()) {
            if (t.sourceArn.equals(source.arn)) {
                throw Texts.invalidParameter(Texts.TASK_RUNNING);
            }
        }
        engine.touch(source, c.now());
        MoveTask t = new MoveTask(c.taskId(), source.arn, c.destinationArn(), rate, c.now(), source.visible,
                ++ordinal, MoveTask.RUNNING, 0, null);
        byId.put(t.taskId, t);
        active.put(t.taskId, t);
        write(t, b);
        return t.handle();
    }

    List<MoveTaskInfo> list(String sourceArn, Integer maxResults) {
        if (engine.queues.byArn.get(sourceArn) == null) {
            throw Texts.resourceNotFound(Texts.NO_SOURCE);
        }
        if (maxResults != null && (maxResults < 1 || maxResults > 10)) {
            throw Texts.invalidValue(maxResults, "MaxResults", "Must be between 1 and 10, if provided.");
        }
        int limit = maxResults == null ? 1 : maxResults;
        return byId.values().stream().filter(t -> t.sourceArn.equals(sourceArn))
                .sorted(Comparator.comparingLong((MoveTask t) -> t.ordinal).reversed())
                .limit(limit).map(MoveTask::info).toList();
    }

    long cancel(String handle, long now, StoreBatch b) {
        String[] parts = MoveTask.parseHandle(handle);
        if (parts == null) {
            throw Texts.invalidParameter(Texts.BAD_TASK_HANDLE);
        }
        if (engine.queues.byArn.get(parts[1]) == null) {
            throw Texts.resourceNotFound(Texts.NO_SOURCE);
        }
        MoveTask t = byId.get(parts[0]);
        if (t == null || !t.sourceArn.equals(parts[1])) {
            throw Texts.resourceNotFound(Texts.NO_TASK);
        }
        if (!t.status.equals(MoveTask.RUNNING)) {
            throw Texts.invalidParameter("Only active tasks can be cancelled.");
        }
        advance(t, now, b);
        if (t.status.equals(MoveTask.RUNNING)) {
            t.status = MoveTask.CANCELLING;
            write(t, b);
        }
        return t.moved;
    }

    long nextDeadline() {
        long d = Long.MAX_VALUE;
        for (MoveTask t : active.values()) {
            if (t.status.equals(MoveTask.CANCELLING)) {
                return 0;
            }
            if (t.status.equals(MoveTask.RUNNING)) {
                d = Math.min(d, t.moved >= t.toMove ? t.startedAt : t.nextMoveAt());
            }
        }
        return d;
    }

    void tick(long now, StoreBatch b) {
        for (MoveTask t : new ArrayList<>(active.values())) {
            if (t.status.equals(MoveTask.CANCELLING)) {
                t.status = MoveTask.CANCELLED;
                write(t, b);
            } else if (t.status.equals(MoveTask.RUNNING)) {
                advance(t, now, b);
            }
        }
    }

    /** Moves what the rate allows by {@code now}; completes or fails the task when due. */
    private void advance(MoveTask t, long now, StoreBatch b) {
        QueueState source = engine.queues.byArn.get(t.sourceArn);
        if (source == null) {
            fail(t, "The source queue was deleted.", b);
            return;
        }
        engine.touch(source, now);
        long allowed = Math.min(t.toMove, t.allowedBy(now));
        long before = t.moved;
        while (t.moved < allowed) {
            Message m = nextOf(source, now);
            if (m == null) {
                break;
            }
            StoredMessage sm = engine.load(source, m);
            String destArn = t.destinationArn != null ? t.destinationArn : sm.sourceArn();
            QueueState dest = destArn == null ? null : engine.queues.byArn.get(destArn);
            if (dest == null || dest == source) {
                fail(t, "The destination queue of a message does not exist.", b);
                return;
            }
            if (dest.fifo && sm.groupId() == null) {
                fail(t, "A message without MessageGroupId cannot be moved to a FIFO queue.", b);
                return;
            }
            engine.transfer(source, m, sm, dest, null, now, b);
            t.moved++;
        }
        engine.queues.reschedule(source);
        if (t.moved >= t.toMove || nextOf(source, now) == null) {
            t.status = MoveTask.COMPLETED;
            write(t, b);
        } else if (t.moved != before) {
            write(t, b);
        }
    }

    private static Message nextOf(QueueState q, long now) {
        if (q.fifo) {
            List<Message> c = q.fifoDelivery().candidates(1);
            return c.isEmpty() ? null : c.get(0);
        }
        return q.fair().next(now);
    }

    private void fail(MoveTask t, String reason, StoreBatch b) {
        t.status = MoveTask.FAILED;
        t.failureReason = reason;
        write(t, b);
    }

    private void write(MoveTask t, StoreBatch b) {
        if (!t.active()) {
            active.remove(t.taskId);
        }
        b.put(Keyspace.HOUSEKEEPING, Keys.task(t.taskId), t.encode());
    }
}
