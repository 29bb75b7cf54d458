package io.hikyaku.kms;

import java.io.IOException;

/**
 * The key state with its command log. A writer plans its command against the current state under one lock
 * (checks that refuse come first, so a refused command is never written), the command is written and forced,
 * and only then applied. If the write fails the service fences itself (every later call is refused with a 500)
 * until a restart reloads the log. Control-plane rates; crypto calls only read.
 */
public final class KmsKeys implements AutoCloseable {

    private final KmsState state;
    private final KmsJournal journal;
    private IOException fenced;

    private KmsKeys(KmsState state, KmsJournal journal) {
        this.state = state;
        this.journal = journal;
    }

    /** Replays the log (every command applies: they were checked before they were written). */
    public static KmsKeys open(KmsJournal journal, String region) throws IOException {
        KmsKeys keys = new KmsKeys(new KmsState(region), journal);
        int n = 0;
        for (KmsCommand c : journal.load()) {
            n++;
            try {
                keys.state.apply(c);
            } catch (RuntimeException e) {
                throw new IOException("KMS command " + n + " (" + c.op() + ") does not apply: " + e.getMessage(), e);
            }
        }
        return keys;
    }

    /** Plans a command from the state, logs it, applies it; returns the command (null: nothing to do). */
    public synchronized KmsCommand write(Planner planner) throws KmsException {
        if (fenced != null) {
            throw storeFailed();
        }
        KmsCommand command = planner.plan(state);
        if (command == null) {
            return null;
        }
        try {
            journal.append(command);
        } catch (IOException e) {
            fenced = e;
            throw storeFailed();
        }
        state.apply(command);
        return command;
    }

    public synchronized <T> T read(Reader<T> reader) throws KmsException {
        return reader.read(state);
    }

    public interface Planner {
        KmsCommand plan(KmsState state) throws KmsException;
    }

    public interface Reader<T> {
        T read(KmsState state) throws KmsException;
    }

    public synchronized String digest() {
        return state.digest();
    }

    private static KmsException storeFailed() {
        return new KmsException("KMSInternalException", 500, "The key store failed; restart the server to reload it");
    }

    @Override
    public synchronized void close() throws IOException {
        journal.close();
    }
}
