package dev.shuttle.lab.busy;

import dev.shuttle.lab.load.LoadResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code wrk} (Debian package {@code wrk}) as the hot scenario's load generator over HTTP/1.1: one request in
 * flight per connection, like the lab's own HTTP/1.1 connections, on {@value #THREADS} threads, one per core of the
 * lab's two-core machine, so no single event loop caps the load. wrk has no warm-up option, so a run of the warm-up's
 * length comes first and its figures are dropped. Its summary has no p99.9, so {@link #SCRIPT}'s {@code done}
 * prints every figure as a {@code key=value} line. wrk counts responses with a status of 400 or more as status
 * errors (the lab's servers answer {@code GET /} with 200): they and socket errors count as failed.
 */
final class Wrk implements ExternalGenerator {
    static final String MISSING = "wrk not found (apt-get install wrk): the hot scenario over http1 uses the lab's "
            + "own load generator";
    static final int THREADS = 2;
    /** wrk's default 2 s would count a slow response as failed and leave it out of the latencies. */
    static final String TIMEOUT = "10s";
    static final String SCRIPT = """
            done = function(summary, latency, requests)
               local errors = summary.errors
               io.write(string.format("requests=%d\\nduration_us=%d\\n", summary.requests, summary.duration))
               io.write(string.format("errors_connect=%d\\nerrors_read=%d\\nerrors_write=%d\\n",
                  errors.connect, errors.read, errors.write))
               io.write(string.format("errors_status=%d\\nerrors_timeout=%d\\n", errors.status, errors.timeout))
               io.write(string.format("p50_us=%d\\np99_us=%d\\np999_us=%d\\nmax_us=%d\\n", latency:percentile(50),
                  latency:percentile(99), latency:percentile(99.9), latency.max))
            end
            """;
    private static final Pattern FIELD = Pattern.compile("^([a-z0-9_]+)=(\\d+)$", Pattern.MULTILINE);
    private static final List<String> ERRORS = List.of("status", "connect", "read", "write", "timeout");

    private final Path binary;
    private final int connections;
    private final Path script;

    /** A run of {@code binary} with its script written to {@code dir}. */
    Wrk(Path binary, int connections, Path dir) throws IOException {
        this.binary = binary;
        this.connections = connections;
        this.script = Files.writeString(Files.createTempFile(dir, "wrk-", ".lua"), SCRIPT, StandardCharsets.UTF_8);
    }

    /** The wrk binary on PATH, or null. */
    static Path find() {
        return ExternalGenerator.onPath("wrk");
    }

    /** {@code GET /}, the lab's own HTTP/1.1 request, on {@code connections} connections. */
    static List<String> command(Path binary, Path script, int port, int connections, long durationSeconds) {
        return List.of(binary.toString(), "-t", Integer.toString(THREADS), "-c", Integer.toString(connections),
                "-d", durationSeconds + "s", "--timeout", TIMEOUT, "-s", script.toString(),
                "http://127.0.0.1:" + port + "/");
    }

    @Override
    public String name() {
        return "wrk";
    }

    /** Two processes: the warm-up run to its end, then the measured run, whose connections are new. */
    @Override
    public Process warmUpThenStart(int port, Duration warmup, Duration duration, Path output)
            throws IOException, InterruptedException {
        long warmupSeconds = ExternalGenerator.seconds(warmup);
        Process warm = ExternalGenerator.start(command(binary, script, port, connections, warmupSeconds), output);
        try {
            if (!warm.waitFor(warmupSeconds + 60, TimeUnit.SECONDS)) {
                throw new IOException("wrk's warm-up did not finish in time");
            }
        } finally {
            warm.destroyForcibly();
        }
        if (warm.exitValue() != 0) {
            throw new IOException("wrk's warm-up failed:\n" + Files.readString(output, StandardCharsets.UTF_8).strip());
        }
        return ExternalGenerator.start(command(binary, script, port, connections, ExternalGenerator.seconds(duration)),
                output);
    }

    /** wrk's figures are the measured run's alone, which the window spans. */
    @Override
    public LoadResult result(String output, long windowStartEpochMicros) throws IOException {
        return parse(output, connections);
    }

    @Override
    public void close() throws IOException {
        Files.deleteIfExists(script);
    }

    /** Reads the {@code key=value} lines {@link #SCRIPT} prints into a {@link LoadResult}. */
    static LoadResult parse(String output, int connections) throws IOException {
        Map<String, Long> fields = new HashMap<>();
        Matcher field = FIELD.matcher(output);
        while (field.find()) {
            fields.put(field.group(1), Long.parseLong(field.group(2)));
        }
        for (String key : List.of("requests", "duration_us", "p50_us", "p99_us", "p999_us", "max_us")) {
            if (!fields.containsKey(key)) {
                throw new IOException("wrk printed no " + key + " (its script's report):\n" + output.strip());
            }
        }
        long failed = 0;
        List<String> kinds = new ArrayList<>();
        for (String kind : ERRORS) {
            long count = fields.getOrDefault("errors_" + kind, 0L);
            failed += count;
            if (count > 0) {
                kinds.add(count + " " + (kind.equals("status") ? "status ≥ 400" : kind));
            }
        }
        long succeeded = Math.max(0, fields.get("requests") - fields.getOrDefault("errors_status", 0L));
        return new LoadResult(connections, succeeded, failed, fields.get("duration_us") / 1000.0,
                fields.get("p50_us"), fields.get("p99_us"), fields.get("p999_us"), fields.get("max_us"),
                failed > 0 ? "wrk: " + String.join(", ", kinds) : null, "wrk");
    }
}
