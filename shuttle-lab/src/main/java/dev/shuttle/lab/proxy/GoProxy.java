package dev.shuttle.lab.proxy;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Go's {@code httputil.ReverseProxy}: the lab's {@code reverseproxy.go} resource, copied to a temporary directory and
 * run with {@code go run} (the first run compiles it, which takes a few seconds). It prints its port and Go version
 * once it listens; killing it stops it.
 */
final class GoProxy implements RunningProxy {
    private static final String SOURCE = "reverseproxy.go";

    private final Process process;
    private final int port;
    private final String version;
    private final Path dir;

    private GoProxy(Process process, int port, String version, Path dir) {
        this.process = process;
        this.port = port;
        this.version = version;
        this.dir = dir;
    }

    /** The go tool, or null when it is not installed. */
    static Path binary() {
        return ChildTool.find("go", List.of(Path.of("/usr/lib/go/bin/go"), Path.of("/usr/local/go/bin/go")));
    }

    static GoProxy start(Path go, int upstreamPort) throws IOException {
        Path dir = Files.createTempDirectory("shuttle-lab-go-");
        try (InputStream source = GoProxy.class.getResourceAsStream(SOURCE)) {
            if (source == null) {
                throw new IOException("the lab's " + SOURCE + " resource is missing");
            }
            Files.copy(source, dir.resolve(SOURCE));
        }
        ProcessBuilder builder = new ProcessBuilder(go.toString(), "run", SOURCE, "-upstream",
                "http://127.0.0.1:" + upstreamPort).directory(dir.toFile())
                .redirectError(dir.resolve("stderr.log").toFile());
        builder.environment().putIfAbsent("GOCACHE", System.getProperty("java.io.tmpdir") + "/shuttle-lab-gocache");
        builder.environment().put("GO111MODULE", "off"); // one file, standard library only: no go.mod needed
        Process process = builder.start();
        CompletableFuture<String> firstLine = CompletableFuture.supplyAsync(() -> {
            try {
                return new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))
                        .readLine();
            } catch (IOException e) {
                return null;
            }
        });
        String line;
        try {
            line = firstLine.get(120, TimeUnit.SECONDS); // compiling comes first
        } catch (ExecutionException | TimeoutException e) {
            line = null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            line = null;
        }
        if (line == null || !line.startsWith("listening ")) {
            process.destroyForcibly();
            String errors = Files.exists(dir.resolve("stderr.log")) ? Files.readString(dir.resolve("stderr.log")) : "";
            LabFiles.deleteTree(dir);
            throw new IOException("go run " + SOURCE + " did not start: " + line + " " + errors.strip());
        }
        String[] parts = line.split(" ");
        return new GoProxy(process, Integer.parseInt(parts[1]), parts.length > 2 ? parts[2] : "go", dir);
    }

    @Override
    public int port() {
        return port;
    }

    @Override
    public String version() {
        return version;
    }

    @Override
    public void close() {
        ChildTool.stop(process);
        LabFiles.deleteTree(dir);
    }
}
