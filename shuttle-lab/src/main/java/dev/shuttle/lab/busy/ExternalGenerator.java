package dev.shuttle.lab.busy;

import dev.shuttle.lab.load.LoadResult;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A native load generator for the hot scenario, run as a process of its own ({@link H2Load} over h2c, {@link Wrk}
 * over HTTP/1.1): a C client costs the two shared cores less than the lab's JVM would. One instance per measured
 * round; {@link #close} deletes the files it made.
 */
interface ExternalGenerator extends AutoCloseable {
    /** The generator's name, as the report and error messages show it. */
    String name();

    /**
     * Warms the server up, then starts the measured run with its output going to {@code output}, and returns that
     * run's process as soon as its measured part begins: the lab opens the server's CPU window there.
     */
    Process warmUpThenStart(int port, Duration warmup, Duration duration, Path output)
            throws IOException, InterruptedException;

    /**
     * The measured run's figures from its output; {@code windowStartEpochMicros} is when the lab opened its window.
     */
    LoadResult result(String output, long windowStartEpochMicros) throws IOException;

    @Override
    void close() throws IOException;

    /** The executable {@code name} on PATH, or null. */
    static Path onPath(String name) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path candidate = Path.of(dir, name);
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        return null;
    }

    /** Starts {@code command} with its output and errors going to {@code output}, replacing what was there. */
    static Process start(List<String> command, Path output) throws IOException {
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
    }

    /** Whole seconds of {@code duration}, at least one: neither tool takes a shorter run. */
    static long seconds(Duration duration) {
        return Math.max(1, duration.toSeconds());
    }
}
