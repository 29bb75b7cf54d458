package io.hikyaku.servicelog;

import java.io.IOException;
import java.util.List;

/**
 * The durable record of a service that keeps its state outside the engine (SNS topics, KMS keys, Scheduler
 * schedules, CloudWatch alarms): records (opaque bytes, the service decides what they mean) appended in order,
 * each durable before {@link #append} returns (so before the request that made it is acknowledged), and replayed
 * in that order to rebuild the service's state. {@link FileServiceLog} keeps them in a file of a single node;
 * {@link StoreServiceLog} writes them through a (replicated) {@link io.hikyaku.engine.store.Store}, so in a
 * cluster an append returns only once a majority has it.
 *
 * <p>One writer at a time (each service serialises its changes under its own lock).
 */
public interface ServiceLog extends AutoCloseable {

    /** Every record appended so far, oldest first; also positions the log for the appends that follow. */
    List<byte[]> replay() throws IOException;

    /** Makes {@code record} durable; returns only once it would survive a crash (a failure: not acknowledged). */
    default void append(byte[] record) throws IOException {
        appendAll(List.of(record));
    }

    /** Appends {@code records} in order with one durable write (a scheduler tick's fires); none when empty. */
    void appendAll(List<byte[]> records) throws IOException;

    @Override
    void close() throws IOException;

    /** {@code --storage memory}: nothing survives the process. */
    static ServiceLog memory() {
        return new ServiceLog() {
            @Override
            public List<byte[]> replay() {
                return List.of();
            }

            @Override
            public void appendAll(List<byte[]> records) {
            }

            @Override
            public void close() {
            }
        };
    }
}
