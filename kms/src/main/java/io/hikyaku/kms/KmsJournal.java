package io.hikyaku.kms;

import java.io.IOException;
import java.util.List;

/** Where applied KMS commands are kept so that a restart rebuilds the same state. */
public interface KmsJournal extends AutoCloseable {

    /** Every command appended so far, in order (called once, at start). */
    List<KmsCommand> load() throws IOException;

    /** Makes {@code command} durable; returns only once it would survive a power loss. */
    void append(KmsCommand command) throws IOException;

    @Override
    void close() throws IOException;

    /** {@code --storage memory}: nothing survives the process. */
    static KmsJournal memory() {
        return new KmsJournal() {
            @Override
            public List<KmsCommand> load() {
                return List.of();
            }

            @Override
            public void append(KmsCommand command) {
            }

            @Override
            public void close() {
            }
        };
    }
}
