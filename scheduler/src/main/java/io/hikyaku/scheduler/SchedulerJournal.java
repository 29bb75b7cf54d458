package io.hikyaku.scheduler;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.hikyaku.servicelog.FileServiceLog;
import io.hikyaku.servicelog.ServiceLog;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Scheduler commands as the records of a {@link ServiceLog}, one JSON object each: {@code <data
 * dir>/scheduler/commands.log} on a single node (an earlier version's journal is read as it is), the replicated
 * store in a cluster. A record that does not decode fails the start. A null dir keeps nothing ({@code --storage
 * memory}).
 */
public final class SchedulerJournal implements AutoCloseable {

    /** The service's name in a store-kept log ({@code hikyaku.svc/scheduler/...}). */
    public static final String SERVICE = "scheduler";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final ServiceLog log;

    public SchedulerJournal(Path dataDir) { // null: memory
        this(dataDir == null ? ServiceLog.memory()
                : new FileServiceLog(dataDir.resolve("scheduler").resolve("commands.log"), false,
                        org.slf4j.LoggerFactory.getLogger(SchedulerJournal.class)::warn));
    }

    public SchedulerJournal(ServiceLog log) {
        this.log = log;
    }

    public List<SchedulerCommand> load() throws IOException {
        List<SchedulerCommand> commands = new ArrayList<>();
        for (byte[] record : log.replay()) {
            try {
                commands.add(JSON.readValue(record, SchedulerCommand.class));
            } catch (IOException e) {
                throw new IOException("Scheduler log: command " + (commands.size() + 1) + " is damaged", e);
            }
        }
        return commands;
    }

    public void append(SchedulerCommand command) throws IOException {
        appendAll(List.of(command));
    }

    /** Appends the commands in order with one durable write (a tick's fire records). */
    public void appendAll(List<SchedulerCommand> commands) throws IOException {
        List<byte[]> records = new ArrayList<>(commands.size());
        for (SchedulerCommand command : commands) {
            records.add(JSON.writeValueAsBytes(command));
        }
        log.appendAll(records);
    }

    @Override
    public void close() throws IOException {
        log.close();
    }
}
