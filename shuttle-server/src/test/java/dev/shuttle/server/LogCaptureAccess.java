package dev.shuttle.server;

import java.util.List;

/** {@link LogCapture} for tests in other packages: what a test may ask of the captured log. */
public final class LogCaptureAccess implements AutoCloseable {
    private final LogCapture capture = new LogCapture();

    private LogCaptureAccess() {
    }

    public static LogCaptureAccess open() {
        return new LogCaptureAccess();
    }

    /** Messages logged at WARNING or above, with their throwable's class if they carry one. */
    public List<String> warnings() {
        return capture.warnings().stream()
                .map(e -> e.level() + " " + e.message() + (e.thrown() == null ? "" : " " + e.thrown()))
                .toList();
    }

    @Override
    public void close() {
        capture.close();
    }
}
