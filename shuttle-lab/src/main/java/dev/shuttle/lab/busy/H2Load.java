package dev.shuttle.lab.busy;

import dev.shuttle.lab.load.LoadResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.HdrHistogram.Histogram;

/**
 * nghttp2's {@code h2load} (Debian package {@code nghttp2-client}) as the hot scenario's load generator over h2c.
 * Throughput comes from its summary line; latency percentiles from its per-request log, since its summary has no
 * percentiles.
 */
final class H2Load implements ExternalGenerator {
    static final String MISSING = "h2load not found (apt-get install nghttp2-client): the hot scenario uses the "
            + "lab's own load generator";
    private static final Pattern FINISHED = Pattern.compile("finished in ([0-9.]+)(m?s), ([0-9.]+) req/s");
    private static final Pattern REQUESTS = Pattern.compile(
            "requests: (\\d+) total, (\\d+) started, (\\d+) done, (\\d+) succeeded, (\\d+) failed, (\\d+) errored");

    private final Path binary;
    private final int connections;
    private final int streams;
    private final Path log;

    /** A run of {@code binary} with its per-request log in {@code dir}. */
    H2Load(Path binary, int connections, int streams, Path dir) throws IOException {
        this.binary = binary;
        this.connections = connections;
        this.streams = streams;
        this.log = Files.createTempFile(dir, "h2load-", ".log");
    }

    /** The h2load binary on PATH, or null. */
    static Path find() {
        return ExternalGenerator.onPath("h2load");
    }

    static List<String> command(Path binary, int port, int connections, int streams, long warmupSeconds,
                                long durationSeconds, Path log) {
        return List.of(binary.toString(), "-c", Integer.toString(connections), "-m", Integer.toString(streams),
                "-t", "1", "-D", Long.toString(durationSeconds), "--warm-up-time=" + warmupSeconds,
                "--log-file=" + log, "http://127.0.0.1:" + port + "/");
    }

    @Override
    public String name() {
        return "h2load";
    }

    /** One process: h2load connects at once and starts its measured part after its own warm-up. */
    @Override
    public Process warmUpThenStart(int port, Duration warmup, Duration duration, Path output)
            throws IOException, InterruptedException {
        long warmupSeconds = ExternalGenerator.seconds(warmup);
        Process process = ExternalGenerator.start(command(binary, port, connections, streams, warmupSeconds,
                ExternalGenerator.seconds(duration), log), output);
        try {
            TimeUnit.SECONDS.sleep(warmupSeconds);
            return process;
        } catch (InterruptedException | RuntimeException e) {
            process.destroyForcibly();
            throw e;
        }
    }

    @Override
    public LoadResult result(String output, long windowStartEpochMicros) throws IOException {
        return parse(output, log, windowStartEpochMicros, connections);
    }

    @Override
    public void close() throws IOException {
        Files.deleteIfExists(log);
    }

    /**
     * Reads h2load's output and log into a {@link LoadResult}; only log lines of requests started at or after
     * {@code windowStartEpochMicros} count for the percentiles.
     */
    static LoadResult parse(String output, Path log, long windowStartEpochMicros, int connections)
            throws IOException {
        Matcher finished = FINISHED.matcher(output);
        Matcher requests = REQUESTS.matcher(output);
        if (!finished.find() || !requests.find()) {
            throw new IOException("h2load printed no summary:\n" + output.strip());
        }
        double seconds = Double.parseDouble(finished.group(1)) / (finished.group(2).equals("ms") ? 1000 : 1);
        long succeeded = Long.parseLong(requests.group(4));
        long failed = Long.parseLong(requests.group(5)) + Long.parseLong(requests.group(6));
        Histogram latencies = new Histogram(120_000_000L, 3);
        if (Files.exists(log)) {
            for (String line : Files.readAllLines(log, StandardCharsets.US_ASCII)) {
                String[] fields = line.split("\t");
                if (fields.length >= 3 && Long.parseLong(fields[0].trim()) >= windowStartEpochMicros) {
                    latencies.recordValue(Math.max(1, Math.min(120_000_000L, Long.parseLong(fields[2].trim()))));
                }
            }
        }
        boolean empty = latencies.getTotalCount() == 0;
        return new LoadResult(connections, succeeded, failed, seconds * 1000,
                empty ? 0 : latencies.getValueAtPercentile(50), empty ? 0 : latencies.getValueAtPercentile(99),
                empty ? 0 : latencies.getValueAtPercentile(99.9), empty ? 0 : latencies.getMaxValue(),
                failed > 0 ? failed + " requests failed (h2load)" : null, "h2load");
    }
}
