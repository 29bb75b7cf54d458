package io.hikyaku.server;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.PatternLayout;
import ch.qos.logback.classic.spi.LoggingEvent;
import io.hikyaku.server.logging.TextLineLayout;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.slf4j.event.KeyValuePair;

/** The text log line is byte for byte what Logback's pattern of the same shape writes. */
class TextLineLayoutTest {

    /** The pattern the text format was defined by. */
    private static final String PATTERN =
            "%d{yyyy-MM-dd'T'HH:mm:ss.SSSXXX,UTC} %-5level [%thread] %logger{0} - %msg %kvp{NONE}%n%ex";

    private final LoggerContext context = new LoggerContext();

    private LoggingEvent event(String logger, Level level, long time, String message, Throwable thrown,
                               List<KeyValuePair> pairs) {
        Logger l = context.getLogger(logger);
        LoggingEvent e = new LoggingEvent(Logger.class.getName(), l, level, message, thrown, null);
        e.setTimeStamp(time);
        e.setThreadName("hikyaku-io-3-2");
        if (pairs != null) {
            pairs.forEach(e::addKeyValuePair);
        }
        return e;
    }

    @Test
    void writesWhatThePatternWrites() {
        PatternLayout pattern = new PatternLayout();
        pattern.setContext(context);
        pattern.setPattern(PATTERN);
        pattern.start();
        TextLineLayout text = new TextLineLayout();
        text.setContext(context);
        text.start();
        IllegalStateException nested = new IllegalStateException("outer", new java.io.IOException("disk full"));
        List<LoggingEvent> events = List.of(
                event("io.hikyaku.server.HikyakuServer", Level.INFO, 1_765_052_421_621L, "Hikyaku started", null, null),
                event("io.hikyaku.server.HikyakuServer", Level.WARN, 1_765_052_421_000L, "at a whole second", null, null),
                event("Root", Level.ERROR, 946_684_799_999L, "the last millisecond of 1999", null, null),
                event("io.hikyaku.api.StoreRecovery", Level.DEBUG, 5L, "near the epoch", null, null),
                event("hikyaku.access", Level.INFO, 1_765_052_421_621L, "request", null, List.of(
                        new KeyValuePair("requestId", "b7c1"), new KeyValuePair("status", 200),
                        new KeyValuePair("action", "SendMessage"), new KeyValuePair("principal", null))),
                event("io.hikyaku.server.http.RequestHandler", Level.WARN, 1_765_052_421_621L, "500 on a request",
                        nested, null));
        for (LoggingEvent e : events) {
            assertThat(text.doLayout(e)).isEqualTo(pattern.doLayout(e));
        }
    }
}
