package dev.fabrictwin.cli.security;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.config.Property;

/**
 * Every log line of the JVM while open, in memory: the root logger at its level, and the clients, Streams and our
 * own code at INFO, so that the clients' config dumps (which carry the --config file's values) are among them.
 */
final class LogCapture implements AutoCloseable {

    private static final List<String> INFO_LOGGERS = List.of("org.apache.kafka.clients", "org.apache.kafka.common",
        "org.apache.kafka.streams", "dev.fabrictwin");

    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final LoggerContext context = (LoggerContext) LogManager.getContext(false);
    private final AbstractAppender appender = new AbstractAppender("capture", null, null, true, Property.EMPTY_ARRAY) {
        @Override
        public void append(final LogEvent event) {
            lines.add(event.getLoggerName() + " " + event.getMessage().getFormattedMessage()
                + (event.getThrown() == null ? "" : " " + event.getThrown()));
        }
    };

    LogCapture() {
        final Configuration config = context.getConfiguration();
        appender.start();
        config.addAppender(appender);
        for (final String name : INFO_LOGGERS) {
            final LoggerConfig logger = new LoggerConfig(name, Level.INFO, false); // not additive: keep the console quiet
            logger.addAppender(appender, null, null);
            config.addLogger(name, logger);
        }
        config.getRootLogger().addAppender(appender, null, null);
        context.updateLoggers();
    }

    List<String> lines() {
        return List.copyOf(lines);
    }

    @Override
    public void close() {
        final Configuration config = context.getConfiguration();
        INFO_LOGGERS.forEach(config::removeLogger);
        config.getRootLogger().removeAppender(appender.getName());
        context.updateLoggers();
        appender.stop();
    }
}
