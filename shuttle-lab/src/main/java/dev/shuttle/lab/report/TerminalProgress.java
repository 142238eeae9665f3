package dev.shuttle.lab.report;

import java.io.PrintStream;
import java.lang.reflect.Method;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A progress bar on stderr, redrawn four times a second by its own thread so the terminal is never silent for more
 * than a second even while one slow request blocks the experiment. When stderr is not a terminal it prints a plain
 * line about once a second instead.
 */
public final class TerminalProgress implements ProgressSink {
    private static final int BAR_WIDTH = 28;
    private static final long REDRAW_MILLIS = 250;
    /** Without a terminal each update is a new line: still at least once a second, so a log never goes quiet. */
    private static final long PLAIN_EVERY_MILLIS = 750;

    private final PrintStream out;
    private final boolean interactive;
    private final AtomicLong done = new AtomicLong();
    private final ReentrantLock drawLock = new ReentrantLock();
    private ScheduledExecutorService ticker; // guarded by drawLock
    private volatile String title = "";
    private volatile String phase = "";
    private volatile long total = 1;
    private volatile long startNanos;
    private long lastPlainLine; // guarded by drawLock

    public TerminalProgress(PrintStream out, boolean interactive) {
        this.out = out;
        this.interactive = interactive;
    }

    /** A progress bar on System.err, animated when the console is a terminal. */
    public static TerminalProgress onStderr() {
        return new TerminalProgress(System.err, consoleIsTerminal());
    }

    @Override
    public void begin(String title, long totalUnits) {
        this.title = title;
        this.total = Math.max(1, totalUnits);
        this.startNanos = System.nanoTime();
        done.set(0);
        drawLock.lock();
        try {
            if (ticker == null) {
                ticker = Executors.newSingleThreadScheduledExecutor(r -> {
                    Thread thread = new Thread(r, "shuttle-progress");
                    thread.setDaemon(true);
                    return thread;
                });
                ticker.scheduleAtFixedRate(this::draw, 0, REDRAW_MILLIS, TimeUnit.MILLISECONDS);
            }
        } finally {
            drawLock.unlock();
        }
    }

    @Override
    public void phase(String description) {
        this.phase = description;
    }

    @Override
    public void advance(long units) {
        done.addAndGet(units);
    }

    @Override
    public void finish() {
        drawLock.lock();
        try {
            if (ticker != null) {
                ticker.shutdownNow();
                ticker = null;
            }
            if (interactive) {
                out.print("\r\033[K");
            }
            out.printf("%s: done in %s%n", title, clock(System.nanoTime() - startNanos));
            out.flush();
        } finally {
            drawLock.unlock();
        }
    }

    private void draw() {
        drawLock.lock();
        try {
            long now = System.nanoTime();
            long completed = Math.min(done.get(), total);
            double fraction = (double) completed / total;
            long elapsed = now - startNanos;
            String eta = completed == 0 ? "?" : clock((long) (elapsed / fraction) - elapsed);
            if (interactive) {
                int filled = (int) Math.round(fraction * BAR_WIDTH);
                String bar = "#".repeat(filled) + ".".repeat(BAR_WIDTH - filled);
                out.printf("\r\033[K[%s] %3d%%  %s  %s elapsed, ~%s left", bar, Math.round(fraction * 100), phase,
                        clock(elapsed), eta);
                out.flush();
            } else if (now - lastPlainLine >= TimeUnit.MILLISECONDS.toNanos(PLAIN_EVERY_MILLIS)) {
                lastPlainLine = now;
                out.printf("%s: %d%%, %s, %s elapsed, ~%s left%n", title, Math.round(fraction * 100), phase,
                        clock(elapsed), eta);
                out.flush();
            }
        } catch (RuntimeException e) {
            // drawing must never kill the ticker
        } finally {
            drawLock.unlock();
        }
    }

    static String clock(long nanos) {
        long seconds = Math.max(0, TimeUnit.NANOSECONDS.toSeconds(nanos));
        return String.format("%d:%02d", seconds / 60, seconds % 60);
    }

    /**
     * Whether the console is an interactive terminal: {@code Console.isTerminal()} where the running JDK has it
     * (22+; this code targets 21), else whether there is a console at all.
     */
    static boolean consoleIsTerminal() {
        java.io.Console console = System.console();
        if (console == null) {
            return false;
        }
        try {
            Method isTerminal = java.io.Console.class.getMethod("isTerminal");
            return (Boolean) isTerminal.invoke(console);
        } catch (ReflectiveOperationException e) {
            return true;
        }
    }
}
