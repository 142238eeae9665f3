package dev.shuttle.lab.proxy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A program the lab runs as a child process (nginx, go): finding it, and stopping it with whatever it started. */
final class ChildTool {
    private ChildTool() {
    }

    /** {@code name} on PATH, else the first of {@code places} that is executable, else null. */
    static Path find(String name, List<Path> places) {
        for (String entry : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!entry.isEmpty() && Files.isExecutable(Path.of(entry, name))) {
                return Path.of(entry, name);
            }
        }
        return places.stream().filter(Files::isExecutable).findFirst().orElse(null);
    }

    /**
     * Stops {@code process} and its descendants (nginx's workers, the program {@code go run} built): SIGTERM, up to
     * 5 s, then SIGKILL for anything left. The descendants are listed first: once the parent is gone they re-parent
     * and cannot be found through it.
     */
    static void stop(Process process) {
        List<ProcessHandle> descendants = process.descendants().toList();
        process.destroy();
        descendants.forEach(ProcessHandle::destroy);
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        descendants.forEach(ProcessHandle::destroyForcibly);
    }
}
