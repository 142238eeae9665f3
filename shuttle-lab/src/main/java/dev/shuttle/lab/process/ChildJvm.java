package dev.shuttle.lab.process;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A JVM the lab starts from its own java binary and class path (a server under test, or the lab's client), talking
 * over its stdin and stdout: lines out, lines back. Its stderr goes to a log file whose tail is quoted when it fails.
 * Closing it closes its stdin (every lab child exits on that), then destroys it if it lingers. A shutdown hook
 * destroys every child still running when the lab exits, so Ctrl-C leaves no JVM behind.
 */
public final class ChildJvm implements AutoCloseable {
    private static final Set<Process> LIVE = ConcurrentHashMap.newKeySet();
    private static final String EOF = "\u0000EOF";

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> LIVE.forEach(Process::destroyForcibly),
                "shuttle-lab-children"));
    }

    private final String name;
    private final Process process;
    private final Path log;
    private final OutputStream stdin;
    private final LinkedBlockingQueue<String> lines = new LinkedBlockingQueue<>();

    private ChildJvm(String name, Process process, Path log) {
        this.name = name;
        this.process = process;
        this.log = log;
        this.stdin = process.getOutputStream();
        Thread.ofPlatform().daemon().name("child-stdout-" + name).start(this::pumpStdout);
    }

    /** Starts {@code mainClass} with {@code jvmFlags}, the lab's class path, and {@code args}. */
    public static ChildJvm start(String name, List<String> jvmFlags, String mainClass, List<String> args,
                                 Path logDir) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(javaBinary());
        command.addAll(jvmFlags);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(mainClass);
        command.addAll(args);
        Files.createDirectories(logDir);
        Path log = Files.createTempFile(logDir, name + "-", ".log");
        Process process = new ProcessBuilder(command).redirectError(log.toFile()).start();
        LIVE.add(process);
        return new ChildJvm(name, process, log);
    }

    /** The java binary running the lab, so every child runs on the same JDK. */
    public static String javaBinary() {
        return ProcessHandle.current().info().command()
                .filter(c -> c.endsWith("java"))
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** Sends one line to the child's stdin. */
    public void send(String line) throws IOException {
        stdin.write((line + "\n").getBytes(StandardCharsets.US_ASCII));
        stdin.flush();
    }

    /**
     * The next stdout line starting with one of {@code prefixes}, skipping others. Fails with the child's stderr
     * tail when it prints {@code ERROR}, exits, or stays silent past {@code timeout}.
     */
    public String await(Duration timeout, String... prefixes) throws IOException, InterruptedException {
        String line = poll(timeout, prefixes);
        if (line == null) {
            throw failure("printed nothing expected within " + timeout.toSeconds() + " s");
        }
        return line;
    }

    /** Like {@link #await} but returns null on timeout, so the caller can do something between lines. */
    public String poll(Duration timeout, String... prefixes) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            long left = deadline - System.nanoTime();
            String line = left <= 0 ? lines.poll() : lines.poll(left, TimeUnit.NANOSECONDS);
            if (line == null) {
                return null;
            }
            if (line.equals(EOF)) {
                lines.add(EOF);
                throw failure("exited (code " + exitCode() + ")");
            }
            if (line.startsWith("ERROR")) {
                throw failure(line.substring(5).trim());
            }
            for (String prefix : prefixes) {
                if (line.startsWith(prefix)) {
                    return line;
                }
            }
        }
    }

    private String exitCode() {
        try {
            return process.waitFor(2, TimeUnit.SECONDS) ? Integer.toString(process.exitValue()) : "?";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "?";
        }
    }

    /** An exception naming the child and quoting the end of its stderr. */
    public IOException failure(String what) {
        return new IOException(name + " " + what + stderrTail());
    }

    private String stderrTail() {
        try {
            List<String> all = Files.readAllLines(log, StandardCharsets.UTF_8);
            List<String> tail = all.subList(Math.max(0, all.size() - 8), all.size());
            return tail.isEmpty() ? "" : "; its stderr (" + log + ") ends:\n  " + String.join("\n  ", tail);
        } catch (IOException | UncheckedIOException e) {
            return "";
        }
    }

    private void pumpStdout() {
        try (var reader = process.inputReader(StandardCharsets.UTF_8)) {
            String line;
            while ((line = reader.readLine()) != null) {
                lines.add(line);
            }
        } catch (IOException e) {
            // the process is gone
        } finally {
            lines.add(EOF);
        }
    }

    /** Closes stdin (the child exits), waits up to 10 s, then destroys it. */
    @Override
    public void close() {
        try {
            stdin.close();
        } catch (IOException e) {
            // already gone
        }
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroy();
                if (!process.waitFor(3, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                    process.waitFor(3, TimeUnit.SECONDS);
                }
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        } finally {
            LIVE.remove(process);
        }
    }
}
