package dev.shuttle.lab.idle;

import dev.shuttle.lab.process.ClientProcess;
import dev.shuttle.lab.process.ProcessProbe;
import dev.shuttle.lab.process.ServerProcess;
import dev.shuttle.lab.report.ProgressSink;
import dev.shuttle.lab.report.RunEnvironment;
import dev.shuttle.lab.servers.ServerKind;
import dev.shuttle.lab.servers.UnsupportedProtocolException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Seed 001's idle experiment for Java servers. For each server, connection count and round:
 * <ol>
 *   <li>start the server in a fresh JVM, and the lab's holder in another;</li>
 *   <li>the holder opens one warm-up connection and makes one request on it, so the protocol's classes are loaded
 *       before the baseline; settle, then sample the baseline;</li>
 *   <li>the holder opens N more connections, one request each, then leaves them idle;</li>
 *   <li>settle, then sample: each sample is VmRSS and threads from /proc, live heap after a full GC and virtual
 *       threads from jcmd;</li>
 *   <li>ask the holder how many connections are still open (a server that closed some is flagged), stop both.</li>
 * </ol>
 * Units of progress: one per sample.
 */
public final class IdleExperiment {
    private static final Duration OPEN_TIMEOUT_PER_1000 = Duration.ofSeconds(60);

    private final IdleSettings settings;
    private final ProgressSink progress;
    private final Path logDir;

    public IdleExperiment(IdleSettings settings, ProgressSink progress) throws IOException {
        this.settings = settings;
        this.progress = progress;
        this.logDir = Files.createTempDirectory("shuttle-lab-idle-");
    }

    public IdleResult run() throws IOException, InterruptedException {
        long start = System.nanoTime();
        RunEnvironment environment = RunEnvironment.capture();
        List<ServerKind> measured = new ArrayList<>();
        Map<ServerKind, String> skipped = new LinkedHashMap<>();
        Map<ServerKind, String> versions = new LinkedHashMap<>();
        for (ServerKind server : settings.servers()) {
            try {
                server.target().checkSupported(settings.protocol());
                measured.add(server);
                versions.put(server, server.version());
            } catch (UnsupportedProtocolException e) {
                skipped.put(server, e.getMessage());
            }
        }
        List<IdleCell> cells = new ArrayList<>();
        int samplesPerRound = settings.samples() + settings.baselineSamples();
        progress.begin("lab idle", (long) measured.size() * settings.connectionCounts().size() * settings.rounds()
                * samplesPerRound);
        try {
            for (ServerKind server : measured) {
                for (int count : settings.connectionCounts()) {
                    List<IdleRound> rounds = new ArrayList<>();
                    for (int round = 1; round <= settings.rounds(); round++) {
                        progress.phase(server.cliName() + " × " + count + " " + settings.protocol()
                                + ", round " + round + "/" + settings.rounds());
                        rounds.add(round(server, count, round));
                    }
                    cells.add(new IdleCell(server, count, rounds));
                }
            }
        } finally {
            progress.finish();
        }
        return new IdleResult(settings, environment, measured, skipped, versions, cells,
                System.nanoTime() - start);
    }

    private IdleRound round(ServerKind server, int count, int round) throws IOException, InterruptedException {
        try (ServerProcess process = ServerProcess.start(server, settings.protocol(), logDir);
             ClientProcess holder = ClientProcess.start("hold", settings.protocol(), process.port(), List.of(),
                     logDir)) {
            String warm = holder.open(1, OPEN_TIMEOUT_PER_1000);
            if (held(warm) != 1) {
                throw new IOException(server.cliName() + ": the warm-up connection failed: " + warm);
            }
            sleep(settings.settle());
            List<IdleSample> baseline = samples(process.pid(), settings.baselineSamples());
            Duration openTimeout = OPEN_TIMEOUT_PER_1000.multipliedBy(1 + count / 1000);
            String opened = holder.open(count, openTimeout);
            sleep(settings.settle());
            List<IdleSample> loaded = samples(process.pid(), settings.samples());
            String status = holder.status();
            int stillOpen = Integer.parseInt(status.split("\\s+")[1]);
            String error = opened.contains("first error: ") ? opened.substring(opened.indexOf("first error: ") + 13)
                    : null;
            if (stillOpen < count + 1 && error == null) {
                error = (count + 1 - stillOpen) + " connections closed before the last sample";
            }
            if (!process.isAlive()) {
                throw new IOException(server.cliName() + " exited during the round");
            }
            return IdleRound.of(server, count, round, baseline, loaded, stillOpen,
                    Integer.parseInt(opened.split("\\s+")[3]), error);
        }
    }

    private static int held(String line) {
        return Integer.parseInt(line.split("\\s+")[1]);
    }

    private List<IdleSample> samples(long pid, int n) throws IOException, InterruptedException {
        List<IdleSample> samples = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            long next = System.nanoTime() + settings.interval().toNanos();
            samples.add(sample(pid));
            progress.advance(1);
            if (i < n - 1) {
                long left = next - System.nanoTime();
                if (left > 0) {
                    TimeUnit.NANOSECONDS.sleep(left);
                }
            }
        }
        return samples;
    }

    /** Heap first: its full GC also settles what RSS and the thread dump see. */
    public static IdleSample sample(long pid) throws IOException, InterruptedException {
        long heap = ProcessProbe.liveHeapBytes(pid);
        ProcessProbe.ThreadCounts threads = ProcessProbe.threads(pid);
        long rss = ProcessProbe.rssBytes(pid);
        long osThreads = ProcessProbe.osThreads(pid);
        return new IdleSample(rss, heap, osThreads, threads.virtual());
    }

    private static void sleep(Duration duration) throws InterruptedException {
        TimeUnit.NANOSECONDS.sleep(duration.toNanos());
    }
}
