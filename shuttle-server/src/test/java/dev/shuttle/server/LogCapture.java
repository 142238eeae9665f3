package dev.shuttle.server;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

/**
 * Captures every record the server logs (DEBUG included) while open, so a test can check what an attack leaves in
 * the log: no stack trace at WARNING for ordinary client behaviour, no attacker bytes copied verbatim.
 */
final class LogCapture implements AutoCloseable {
    /** A record as the log would show it: level, formatted message, and whether it carries a stack trace. */
    record Entry(Level level, String message, Throwable thrown) {
    }

    private static final SimpleFormatter FORMATTER = new SimpleFormatter();

    private final Logger logger = Logger.getLogger("dev.shuttle");
    private final Level previousLevel = logger.getLevel();
    private final ReentrantLock lock = new ReentrantLock();
    /** Guarded by lock. */
    private final List<Entry> entries = new ArrayList<>();
    private final Handler handler = new Handler() {
        @Override
        public void publish(LogRecord record) {
            Entry entry = new Entry(record.getLevel(), FORMATTER.formatMessage(record), record.getThrown());
            lock.lock();
            try {
                entries.add(entry);
            } finally {
                lock.unlock();
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    LogCapture() {
        handler.setLevel(Level.ALL);
        logger.setLevel(Level.ALL);
        logger.addHandler(handler);
    }

    List<Entry> entries() {
        lock.lock();
        try {
            return List.copyOf(entries);
        } finally {
            lock.unlock();
        }
    }

    void clear() {
        lock.lock();
        try {
            entries.clear();
        } finally {
            lock.unlock();
        }
    }

    /** Records at WARNING or above. */
    List<Entry> warnings() {
        return entries().stream().filter(e -> e.level().intValue() >= Level.WARNING.intValue()).toList();
    }

    @Override
    public void close() {
        logger.removeHandler(handler);
        logger.setLevel(previousLevel);
    }
}
