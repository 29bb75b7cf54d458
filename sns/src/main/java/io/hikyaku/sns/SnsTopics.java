package io.hikyaku.sns;

import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * The SNS state with its journal: a command is applied, then written and forced, and only then acknowledged.
 * Apply refuses before it changes anything, so a refused command is never written. If the write fails, the
 * memory holds a change the disk does not: the service fences itself (every later command is refused with a
 * 500) until a restart reloads the journal. One lock serialises writers and readers (control-plane rates).
 */
public final class SnsTopics implements AutoCloseable {

    private final SnsState state = new SnsState();
    private final SnsJournal journal;
    private IOException fenced;

    private SnsTopics(SnsJournal journal) {
        this.journal = journal;
    }

    /** Replays the journal; a command that no longer applies means damage or a bug, and start fails. */
    public static SnsTopics open(SnsJournal journal) throws IOException {
        SnsTopics topics = new SnsTopics(journal);
        int n = 0;
        for (SnsCommand c : journal.load()) {
            n++;
            try {
                topics.state.apply(c);
            } catch (SnsException e) {
                throw new IOException("SNS journal command " + n + " (" + c.getClass().getSimpleName()
                        + ") no longer applies: " + e.getMessage());
            }
        }
        return topics;
    }

    public synchronized SnsState.Result apply(SnsCommand command) throws SnsException {
        if (fenced != null) {
            throw new SnsException("InternalError", 500, "The SNS store failed; restart the server to reload it");
        }
        SnsState.Result result = state.apply(command);
        try {
            journal.append(command);
        } catch (IOException e) {
            fenced = e;
            throw new SnsException("InternalError", 500, "The SNS store failed; restart the server to reload it");
        }
        return result;
    }

    /** A read under the same lock as the writers. */
    public synchronized <T> T read(Reader<T> reader) throws SnsException {
        return reader.read(state);
    }

    public interface Reader<T> {
        T read(SnsState state) throws SnsException;
    }

    public synchronized String digest() {
        return state.digest();
    }

    @Override
    public synchronized void close() throws IOException {
        journal.close();
    }

    /** Convenience reads for callers that have no refusal to map. */
    public Map<String, String> topicAttributes(String arn) throws SnsException {
        return read(s -> s.topicAttributes(arn));
    }

    public synchronized List<String> topicArns(String account) {
        return state.topicArns(account); // a read that cannot be refused
    }
}
