package io.hikyaku.server.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.Layout;
import ch.qos.logback.core.encoder.LayoutWrappingEncoder;
import ch.qos.logback.core.spi.ContextAwareBase;
import io.hikyaku.server.LogFormat;
import org.slf4j.LoggerFactory;

/**
 * Logging through SLF4J with Logback, configured in code (no XML parsing at start): INFO and above
 * to standard error, as text or JSON lines; Netty's and RocksDB's chatter stays at WARN. The access
 * log ({@code hikyaku.access}) is off unless switched on. Found by Logback through
 * {@code META-INF/services}, so the default holds before the flags are read; {@link #apply} then
 * applies the chosen format.
 */
public final class LogSetup extends ContextAwareBase implements Configurator {

    @Override
    public ExecutionStatus configure(LoggerContext context) {
        install(context, LogFormat.TEXT, false);
        return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
    }

    /** Applies {@code format} and turns the access log on or off. */
    public static void apply(LogFormat format, boolean accessLog) {
        if (LoggerFactory.getILoggerFactory() instanceof LoggerContext context) {
            install(context, format, accessLog);
        }
    }

    private static void install(LoggerContext context, LogFormat format, boolean accessLog) {
        context.reset();
        Layout<ILoggingEvent> layout = format == LogFormat.JSON ? new JsonLineLayout() : new TextLineLayout();
        layout.setContext(context);
        layout.start();
        LayoutWrappingEncoder<ILoggingEvent> encoder = new LayoutWrappingEncoder<>();
        encoder.setContext(context);
        encoder.setLayout(layout);
        encoder.start();
        ConsoleAppender<ILoggingEvent> appender = new ConsoleAppender<>();
        appender.setContext(context);
        appender.setName("console");
        appender.setTarget("System.err");
        appender.setEncoder(encoder);
        appender.start();
        Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        root.setLevel(Level.INFO);
        root.addAppender(appender);
        context.getLogger("io.netty").setLevel(Level.WARN);
        context.getLogger(AccessLog.LOGGER).setLevel(accessLog ? Level.INFO : Level.OFF);
    }
}
