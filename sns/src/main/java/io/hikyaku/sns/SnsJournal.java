package io.hikyaku.sns;

import java.io.IOException;
import java.util.List;

/** Where applied SNS commands are kept so that a restart rebuilds the same state. */
public interface SnsJournal extends AutoCloseable {

    /** Every command appended so far, in order (called once, at start). */
    List<SnsCommand> load() throws IOException;

    /** Makes {@code command} durable; returns only once it would survive a power loss. */
    void append(SnsCommand command) throws IOException;

    @Override
    void close() throws IOException;

    /** {@code --storage memory}: nothing survives the process. */
    static SnsJournal memory() {
        return new SnsJournal() {
            @Override
            public List<SnsCommand> load() {
                return List.of();
            }

            @Override
            public void append(SnsCommand command) {
            }

            @Override
            public void close() {
            }
        };
    }
}
