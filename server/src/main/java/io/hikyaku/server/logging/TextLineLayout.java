package io.hikyaku.server.logging;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.CoreConstants;
import ch.qos.logback.core.LayoutBase;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import org.slf4j.event.KeyValuePair;

/**
 * One text line per event: {@code 2026-12-06T20:20:21.621Z INFO  [main] HikyakuServer - message k=v},
 * then the exception's stack, if any. The same text as Logback's pattern
 * {@code %d{yyyy-MM-dd'T'HH:mm:ss.SSSXXX,UTC} %-5level [%thread] %logger{0} - %msg %kvp{NONE}%n%ex},
 * written directly: the pattern's parser and converters cost ~40 ms of every start.
 */
public final class TextLineLayout extends LayoutBase<ILoggingEvent> {

    @Override
    public String doLayout(ILoggingEvent event) {
        StringBuilder line = new StringBuilder(128);
        appendTime(line, event.getTimeStamp());
        String level = event.getLevel().toString();
        line.append(' ').append(level);
        for (int i = level.length(); i < 5; i++) {
            line.append(' ');
        }
        line.append(" [").append(event.getThreadName()).append("] ");
        String logger = event.getLoggerName();
        line.append(logger, logger.lastIndexOf('.') + 1, logger.length());
        line.append(" - ").append(event.getFormattedMessage()).append(' ');
        List<KeyValuePair> pairs = event.getKeyValuePairs();
        if (pairs != null) {
            for (int i = 0; i < pairs.size(); i++) {
                if (i > 0) {
                    line.append(' ');
                }
                line.append(pairs.get(i).key).append('=').append(pairs.get(i).value);
            }
        }
        line.append(CoreConstants.LINE_SEPARATOR);
        IThrowableProxy thrown = event.getThrowableProxy();
        if (thrown != null) {
            line.append(ThrowableProxyUtil.asString(thrown)); // ends with its own line separator
        }
        return line.toString();
    }

    /** {@code yyyy-MM-ddTHH:mm:ss.SSSZ} in UTC, without a formatter (whose locale data is slow to load). */
    private static void appendTime(StringBuilder out, long epochMillis) {
        LocalDateTime t = LocalDateTime.ofEpochSecond(Math.floorDiv(epochMillis, 1000L), 0, ZoneOffset.UTC);
        pad(out, t.getYear(), 4).append('-');
        pad(out, t.getMonthValue(), 2).append('-');
        pad(out, t.getDayOfMonth(), 2).append('T');
        pad(out, t.getHour(), 2).append(':');
        pad(out, t.getMinute(), 2).append(':');
        pad(out, t.getSecond(), 2).append('.');
        pad(out, (int) Math.floorMod(epochMillis, 1000L), 3).append('Z');
    }

    private static StringBuilder pad(StringBuilder out, int value, int width) {
        String digits = Integer.toString(value);
        for (int i = digits.length(); i < width; i++) {
            out.append('0');
        }
        return out.append(digits);
    }
}
