package io.hikyaku.server.logging;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.LayoutBase;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.time.Instant;
import org.slf4j.event.KeyValuePair;

/**
 * One JSON object per line: time (ISO-8601 UTC), level, logger, thread, message, the event's
 * key-value pairs as fields of their own (the access log's), and the exception's stack as text.
 */
public final class JsonLineLayout extends LayoutBase<ILoggingEvent> {

    private static final JsonFactory JSON = new JsonFactory();

    @Override
    public String doLayout(ILoggingEvent event) {
        StringWriter out = new StringWriter(256);
        try (JsonGenerator g = JSON.createGenerator(out)) {
            g.writeStartObject();
            g.writeStringField("time", Instant.ofEpochMilli(event.getTimeStamp()).toString());
            g.writeStringField("level", event.getLevel().toString());
            g.writeStringField("logger", event.getLoggerName());
            g.writeStringField("thread", event.getThreadName());
            g.writeStringField("message", event.getFormattedMessage());
            if (event.getKeyValuePairs() != null) {
                for (KeyValuePair kv : event.getKeyValuePairs()) {
                    if (kv.value instanceof Number n) {
                        g.writeFieldName(kv.key);
                        g.writeNumber(n.toString());
                    } else {
                        g.writeStringField(kv.key, String.valueOf(kv.value));
                    }
                }
            }
            IThrowableProxy thrown = event.getThrowableProxy();
            if (thrown != null) {
                g.writeStringField("exception", ThrowableProxyUtil.asString(thrown));
            }
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.append('\n').toString();
    }
}
