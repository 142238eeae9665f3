package dev.shuttle.server;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs a real client (curl, python3, go) for a test, bounded in time; skips the test when the tool is missing. */
public final class ExternalProcess {
    /** What the process printed and how it ended. */
    public record Result(int exitCode, String stdout, String stderr) {
    }

    private ExternalProcess() {
    }

    /** Skips the calling test, with a message naming the Debian package, when {@code tool} is not installed. */
    public static void assumeInstalled(String tool, String debianPackage) {
        assumeTrue(find(tool) != null, tool + " is not installed (Debian package " + debianPackage + ")");
    }

    /** The executable's path on PATH (or in /usr/sbin, /usr/lib/go/bin), or null. */
    public static Path find(String tool) {
        List<String> dirs = new ArrayList<>(List.of(System.getenv().getOrDefault("PATH", "").split(":")));
        dirs.addAll(List.of("/usr/sbin", "/usr/lib/go/bin", "/usr/local/go/bin"));
        for (String dir : dirs) {
            if (dir.isEmpty()) {
                continue;
            }
            Path candidate = Path.of(dir, tool);
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        return null;
    }

    public static Result run(List<String> command) throws Exception {
        return run(command, new byte[0], null);
    }

    /** Runs {@code command} with {@code stdin}, in {@code directory} when not null; at most 120 s. */
    public static Result run(List<String> command, byte[] stdin, Path directory) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(new ArrayList<>(command));
        if (directory != null) {
            builder.directory(directory.toFile());
        }
        Process process = builder.start();
        Thread.startVirtualThread(() -> {
            try (var in = process.getOutputStream()) {
                in.write(stdin);
            } catch (IOException ignored) {
                // the process decides whether it needed stdin
            }
        });
        ByteArrayOutputStream stderr = new ByteArrayOutputStream();
        Thread errors = Thread.startVirtualThread(() -> copy(process.getErrorStream(), stderr));
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        Thread output = Thread.startVirtualThread(() -> copy(process.getInputStream(), stdout));
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("timed out: " + command);
        }
        output.join();
        errors.join();
        return new Result(process.exitValue(), stdout.toString(StandardCharsets.UTF_8),
                stderr.toString(StandardCharsets.UTF_8));
    }

    private static void copy(InputStream in, ByteArrayOutputStream out) {
        try {
            in.transferTo(out);
        } catch (IOException ignored) {
            // process ended
        }
    }
}
