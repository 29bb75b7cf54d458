package io.hikyaku.sns;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.hikyaku.servicelog.FileServiceLog;
import io.hikyaku.servicelog.ServiceLog;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * SNS commands as the records of a {@link ServiceLog}, one JSON object each: {@code <data>/sns/commands.log} on a
 * single node ({@link #inDataDir}), the replicated store in a cluster. A record that does not decode is refused
 * (skipping a command would silently change the state); the log itself cuts off a torn tail.
 */
public final class SnsCommandLog implements SnsJournal {

    /** The service's name in a store-kept log ({@code hikyaku.svc/sns/...}). */
    public static final String SERVICE = "sns";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final ServiceLog log;

    public SnsCommandLog(ServiceLog log) {
        this.log = log;
    }

    /** The single node's file, {@code <dataDir>/sns/commands.log} (an earlier version's journal is read as it is). */
    public static SnsCommandLog inDataDir(Path dataDir) {
        return new SnsCommandLog(new FileServiceLog(dataDir.resolve("sns").resolve("commands.log"), false,
                org.slf4j.LoggerFactory.getLogger(SnsCommandLog.class)::warn));
    }

    @Override
    public List<SnsCommand> load() throws IOException {
        List<SnsCommand> commands = new ArrayList<>();
        for (byte[] record : log.replay()) {
            try {
                commands.add(JSON.readValue(record, SnsCommand.class));
            } catch (IOException e) {
                throw new IOException("SNS log: command " + (commands.size() + 1) + " is damaged", e);
            }
        }
        return commands;
    }

    @Override
    public void append(SnsCommand command) throws IOException {
        log.append(JSON.writeValueAsBytes(command));
    }

    @Override
    public void close() throws IOException {
        log.close();
    }
}
