package io.hikyaku.scheduler;

import java.io.IOException;

/**
 * The state with its log: a command is applied, then appended and forced, and only then acknowledged (apply refuses
 * before it changes anything, so a refused command is never written). A failed append fences the store (every later
 * command is a 500) until a restart reloads the log. One lock serialises writers and readers.
 */
public final class SchedulerStore implements AutoCloseable {

    private final SchedulerState state;
    private final SchedulerJournal journal;
    private IOException fenced;

    private SchedulerStore(SchedulerState state, SchedulerJournal journal) {
        this.state = state;
        this.journal = journal;
    }

    public static SchedulerStore open(String region, SchedulerJournal journal) throws IOException {
        SchedulerStore store = new SchedulerStore(new SchedulerState(region), journal);
        int n = 0;
        for (SchedulerCommand c : journal.load()) {
            n++;
            try {
                store.state.apply(c);
            } catch (SchedulerException e) {
                throw new IOException("Scheduler log command " + n + " (" + c.getClass().getSimpleName()
                        + ") no longer applies: " + e.getMessage());
            }
        }
        return store;
    }

    public synchronized String apply(SchedulerCommand command) throws SchedulerException {
        if (fenced != null) {
            throw new SchedulerException("InternalServerException", 500, "The Scheduler store failed; restart the server to reload it");
        }
        String result = state.apply(command);
        try {
            journal.append(command);
        } catch (IOException e) {
            fenced = e;
            throw new SchedulerException("InternalServerException", 500, "The Scheduler store failed; restart the server to reload it");
        }
        return result;
    }

    /**
     * Applies each command (one that refuses is left out) and appends those applied with one force: the fire
     * records of a tick. A failed append fences the store, as {@link #apply} does.
     */
    public synchronized void applyAll(java.util.List<SchedulerCommand> commands) throws SchedulerException {
        if (fenced != null) {
            throw new SchedulerException("InternalServerException", 500, "The Scheduler store failed; restart the server to reload it");
        }
        java.util.List<SchedulerCommand> applied = new java.util.ArrayList<>();
        for (SchedulerCommand c : commands) {
            try {
                state.apply(c);
                applied.add(c);
            } catch (SchedulerException refused) {
                // refused before it changed anything: not written
            }
        }
        try {
            journal.appendAll(applied);
        } catch (IOException e) {
            fenced = e;
            throw new SchedulerException("InternalServerException", 500, "The Scheduler store failed; restart the server to reload it");
        }
    }

    public synchronized <T> T read(Reader<T> reader) throws SchedulerException {
        return reader.read(state);
    }

    public interface Reader<T> {
        T read(SchedulerState state) throws SchedulerException;
    }

    public synchronized String digest() {
        return state.digest();
    }

    @Override
    public synchronized void close() throws IOException {
        journal.close();
    }
}
