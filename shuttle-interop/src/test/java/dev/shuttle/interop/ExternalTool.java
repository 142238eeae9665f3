package dev.shuttle.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** A program of someone else's that a test runs: found on the PATH (or in /usr/bin, /usr/sbin), bounded in time. */
final class ExternalTool {
    private ExternalTool() {
    }

    /** What a finished program printed. */
    record Result(int exitCode, String stdout, String stderr) {
        @Override
        public String toString() {
            return "exit " + exitCode + "; stdout: " + tail(stdout) + "; stderr: " + tail(stderr);
        }

        private static String tail(String text) {
            return text.length() <= 2_000 ? text : "..." + text.substring(text.length() - 2_000);
        }
    }

    /**
     * The path of {@code name}, or the test is skipped saying which package provides it. {@code name} may be an
     * absolute path.
     */
    static Path require(String name, String debianPackage) {
        Path found = find(name);
        assumeTrue(found != null, name + " is not installed (Debian package " + debianPackage + "): skipped");
        return found;
    }

    static Path find(String name) {
        if (name.startsWith("/")) {
            Path path = Path.of(name);
            return Files.isExecutable(path) ? path : null;
        }
        List<String> directories = new ArrayList<>(List.of(System.getenv().getOrDefault("PATH", "")
                .split(File.pathSeparator)));
        directories.addAll(List.of("/usr/local/bin", "/usr/bin", "/usr/sbin"));
        for (String directory : directories) {
            if (!directory.isEmpty() && Files.isExecutable(Path.of(directory, name))) {
                return Path.of(directory, name);
            }
        }
        return null;
    }

    /** Runs {@code command} to its end, or kills it after {@code timeout} and fails with what it printed. */
    static Result run(List<String> command, Duration timeout, Map<String, String> environment, Path workDirectory)
            throws IOException, InterruptedException {
        Path stdout = Files.createTempFile(workDirectory, "stdout", ".txt");
        Path stderr = Files.createTempFile(workDirectory, "stderr", ".txt");
        ProcessBuilder builder = new ProcessBuilder(command).directory(workDirectory.toFile())
                .redirectOutput(stdout.toFile()).redirectError(stderr.toFile());
        builder.environment().putAll(environment);
        Process process = builder.start();
        boolean ended = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (!ended) {
            process.destroyForcibly().waitFor();
        }
        Result result = new Result(ended ? process.exitValue() : -1, Files.readString(stdout, StandardCharsets.UTF_8),
                Files.readString(stderr, StandardCharsets.UTF_8));
        assertThat(ended).as("%s ended within %s; %s", command.getFirst(), timeout, result).isTrue();
        return result;
    }

    /** Copies a resource of this package to {@code directory} and returns its path there. */
    static Path resource(String name, Path directory) throws IOException {
        Path target = directory.resolve(Path.of(name).getFileName().toString());
        try (var in = ExternalTool.class.getResourceAsStream(name)) {
            assertThat(in).as(name + " in the test class path").isNotNull();
            Files.copy(in, target);
        }
        return target;
    }
}
