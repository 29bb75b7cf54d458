package io.hikyaku.sns;

import io.hikyaku.api.SqsService;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/** SNS as the server runs it: the durable topics (journal in the data dir, or memory), the publisher and the API. */
public final class SnsService implements AutoCloseable {

    private final SnsTopics topics;
    private final SnsPublisher publisher;
    private final SnsApi api;

    private SnsService(SnsTopics topics, SnsPublisher publisher, SnsApi api) {
        this.topics = topics;
        this.publisher = publisher;
        this.api = api;
    }

    /** @param dataDir the server's data dir, or null for {@code --storage memory} */
    public static SnsService start(SqsService sqs, Path dataDir, String region) {
        try {
            SnsTopics topics = SnsTopics.open(dataDir == null ? SnsJournal.memory() : new FileSnsJournal(dataDir));
            SnsPublisher publisher = new SnsPublisher(sqs, region);
            return new SnsService(topics, publisher, SnsApi.create(topics, region, publisher));
        } catch (IOException e) {
            throw new UncheckedIOException("SNS topics could not be loaded from " + dataDir, e);
        }
    }

    public SnsApi api() {
        return api;
    }

    /** AWS/SNS counters since start. */
    public java.util.Map<String, Long> counters() {
        return publisher.counters();
    }

    @Override
    public void close() {
        try {
            topics.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
