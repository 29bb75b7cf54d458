package io.hikyaku.scheduler;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code <data dir>/scheduler/commands.log}: one JSON command a line, forced before {@link #append} returns. A torn
 * last line (never acknowledged) is cut off at load; damage elsewhere fails the start. A null dir keeps nothing
 * ({@code --storage memory}).
 */
public final class SchedulerJournal implements AutoCloseable {

    static final int MAX_LINE_BYTES = 1024 * 1024;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path file;
    private FileChannel channel;

    public SchedulerJournal(Path dataDir) {
        this.file = dataDir == null ? null : dataDir.resolve("scheduler").resolve("commands.log");
    }

    public List<SchedulerCommand> load() throws IOException {
        List<SchedulerCommand> commands = new ArrayList<>();
        if (file == null) {
            return commands;
        }
        Files.createDirectories(file.getParent());
        long good = 0;
        if (Files.exists(file)) {
            byte[] all = Files.readAllBytes(file);
            int start = 0;
            while (start < all.length) {
                int end = start;
                while (end < all.length && all[end] != '\n') {
                    end++;
                }
                if (end == all.length) {
                    break; // a torn tail: written, never acknowledged
                }
                try {
                    commands.add(JSON.readValue(new String(all, start, end - start, StandardCharsets.UTF_8), SchedulerCommand.class));
                } catch (IOException e) {
                    throw new IOException(file + ": command " + (commands.size() + 1) + " is damaged", e);
                }
                start = end + 1;
                good = start;
            }
        }
        channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        channel.truncate(good);
        channel.position(good);
        channel.force(true);
        return commands;
    }

    public void append(SchedulerCommand command) throws IOException {
        appendAll(List.of(command));
    }

    /** Appends the commands in order and forces them once (a tick's fire records: one fsync for all). */
    public void appendAll(List<SchedulerCommand> commands) throws IOException {
        if (channel == null || commands.isEmpty()) {
            return;
        }
        java.io.ByteArrayOutputStream lines = new java.io.ByteArrayOutputStream();
        for (SchedulerCommand command : commands) {
            byte[] line = (JSON.writeValueAsString(command) + "\n").getBytes(StandardCharsets.UTF_8);
            if (line.length > MAX_LINE_BYTES) {
                throw new IOException("a Scheduler command of " + line.length + " bytes exceeds the log's line limit");
            }
            lines.write(line);
        }
        ByteBuffer buffer = ByteBuffer.wrap(lines.toByteArray());
        while (buffer.hasRemaining()) {
            channel.write(buffer);
        }
        channel.force(false);
    }

    @Override
    public void close() throws IOException {
        if (channel != null) {
            channel.close();
        }
    }
}
