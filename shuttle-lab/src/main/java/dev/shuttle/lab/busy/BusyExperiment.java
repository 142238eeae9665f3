package dev.shuttle.lab.busy;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.shuttle.lab.idle.IdleExperiment;
import dev.shuttle.lab.idle.IdleSample;
import dev.shuttle.lab.idle.SampleMath;
import dev.shuttle.lab.load.LoadResult;
import dev.shuttle.lab.process.ClientProcess;
import dev.shuttle.lab.process.ProcessProbe;
import dev.shuttle.lab.process.ServerProcess;
import dev.shuttle.lab.report.ProgressSink;
import dev.shuttle.lab.report.RunEnvironment;
import dev.shuttle.lab.servers.Protocol;
import dev.shuttle.lab.servers.ServerKind;
import dev.shuttle.lab.servers.UnsupportedProtocolException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Seed 001's busy shapes for Java servers. For each scenario, server and round: a fresh server JVM; the load from
 * the lab's client JVM (or h2load for hot over h2c; or, with {@code --generator shuttle}, hot from the same client
 * JVM on Shuttle's own client); the server's baseline (live heap after a full GC, then RSS) after start-up and
 * before any load; its CPU time read from /proc at the window's edges, its RSS once a second inside it, and its live
 * heap after a full GC once the window closed. Units of progress: seconds of load.
 */
public final class BusyExperiment {
    private static final Duration CONNECT_TIMEOUT = Duration.ofMinutes(3);

    private final BusySettings settings;
    private final ProgressSink progress;
    private final Path logDir;
    private final Path h2load;
    private final List<String> notes = new ArrayList<>();

    public BusyExperiment(BusySettings settings, ProgressSink progress) throws IOException {
        this.settings = settings;
        this.progress = progress;
        this.logDir = Files.createTempDirectory("shuttle-lab-busy-");
        this.h2load = H2Load.find();
    }

    /** Whether the hot scenario will run on h2load; says why not in the notes when it was wanted. */
    boolean hotUsesH2load() {
        if (settings.generator().equals("lab") || settings.generator().equals("shuttle")) {
            return false;
        }
        if (settings.protocol() != Protocol.H2C) {
            if (settings.generator().equals("h2load")) {
                throw new IllegalArgumentException("--generator h2load works for h2c only (its HTTP/1 parser "
                        + "rejects Tomcat's status line without a reason phrase)");
            }
            return false;
        }
        if (h2load == null) {
            if (settings.generator().equals("h2load")) {
                throw new IllegalArgumentException(H2Load.MISSING.substring(0, H2Load.MISSING.indexOf(':')));
            }
            return false;
        }
        return true;
    }

    public BusyResult run() throws IOException, InterruptedException {
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
        boolean useH2load = settings.scenarios().contains(BusyScenario.HOT) && hotUsesH2load();
        if (settings.scenarios().contains(BusyScenario.HOT) && !useH2load && h2load == null
                && settings.protocol() == Protocol.H2C && !settings.generator().equals("shuttle")) {
            notes.add(H2Load.MISSING);
            System.err.println("shuttle: " + H2Load.MISSING);
        }
        long units = 0;
        for (BusyScenario scenario : settings.scenarios()) {
            units += (settings.warmupOf(scenario).toSeconds() + settings.durationOf(scenario).toSeconds())
                    * measured.size() * settings.rounds();
        }
        List<BusyCell> cells = new ArrayList<>();
        progress.begin("lab busy", units);
        try {
            for (BusyScenario scenario : settings.scenarios()) {
                for (ServerKind server : measured) {
                    List<BusyMeasurement> rounds = new ArrayList<>();
                    for (int round = 1; round <= settings.rounds(); round++) {
                        progress.phase(scenario.cliName() + ": " + server.cliName() + " " + settings.protocol()
                                + ", round " + round + "/" + settings.rounds());
                        boolean viaH2load = scenario == BusyScenario.HOT && useH2load;
                        rounds.add(viaH2load ? measureWithH2load(server, round) : measure(server, scenario, round));
                    }
                    cells.add(new BusyCell(server, scenario, rounds));
                }
            }
        } finally {
            progress.finish();
        }
        return new BusyResult(settings, environment, measured, skipped, versions, cells, List.copyOf(notes),
                System.nanoTime() - start);
    }

    private BusyMeasurement measure(ServerKind server, BusyScenario scenario, int round)
            throws IOException, InterruptedException {
        Duration warmup = settings.warmupOf(scenario);
        Duration duration = settings.durationOf(scenario);
        int connections = settings.connectionsOf(scenario);
        long shape = scenario == BusyScenario.HOT && !settings.protocol().isHttp2() ? 1 : scenario.shape();
        // LoadMain's hot-shuttle: hot with one of Shuttle's own clients per connection
        String mode = scenario == BusyScenario.HOT && settings.generator().equals("shuttle") ? "hot-shuttle"
                : scenario.cliName();
        ServerProcess process = ServerProcess.start(server, settings.protocol(), logDir);
        IdleSample baseline;
        try {
            baseline = IdleExperiment.sample(process.pid());
        } catch (IOException | InterruptedException | RuntimeException e) {
            process.close();
            throw e;
        }
        try (process;
             ClientProcess load = ClientProcess.start(mode, settings.protocol(), process.port(),
                     List.of(Integer.toString(connections), Long.toString(shape),
                             Long.toString(warmup.toMillis()), Long.toString(duration.toMillis())), logDir)) {
            load.await(CONNECT_TIMEOUT, "CONNECTED ");
            load.await(warmup.plusSeconds(60), "MEASURING");
            progress.advance(warmup.toSeconds());
            Window window = Window.open(process.pid());
            while (load.poll(Duration.ofSeconds(1), "MEASURED") == null) {
                window.sampleRss();
                progress.advance(1);
                if (window.elapsed().compareTo(duration.plusSeconds(60)) > 0) {
                    throw new IOException(server.cliName() + ": the load did not end its window in time");
                }
            }
            window.close();
            String line = load.await(Duration.ofSeconds(60), "RESULT ");
            window.sampleLiveHeap(); // the load is over and its connections are still open, idle
            LoadResult result = new ObjectMapper()
                    .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false)
                    .readValue(line.substring(7), LoadResult.class);
            return window.measurement(server, scenario, round, result, baseline);
        }
    }

    private BusyMeasurement measureWithH2load(ServerKind server, int round) throws IOException, InterruptedException {
        BusyScenario scenario = BusyScenario.HOT;
        Duration warmup = settings.warmupOf(scenario);
        Duration duration = settings.durationOf(scenario);
        Path log = Files.createTempFile(logDir, "h2load-", ".log");
        Path output = Files.createTempFile(logDir, "h2load-", ".out");
        try (ServerProcess process = ServerProcess.start(server, settings.protocol(), logDir)) {
            IdleSample baseline = IdleExperiment.sample(process.pid());
            Process h2 = new ProcessBuilder(H2Load.command(h2load, process.port(), scenario.defaultConnections(),
                    (int) scenario.shape(), Math.max(1, warmup.toSeconds()), Math.max(1, duration.toSeconds()), log))
                    .redirectErrorStream(true).redirectOutput(output.toFile()).start();
            try {
                // h2load connects at once and starts its window after the warm-up
                TimeUnit.NANOSECONDS.sleep(Math.max(1, warmup.toSeconds()) * 1_000_000_000L);
                progress.advance(warmup.toSeconds());
                long windowStartMicros = System.currentTimeMillis() * 1000;
                Window window = Window.open(process.pid());
                while (!h2.waitFor(1, TimeUnit.SECONDS)) {
                    window.sampleRss();
                    progress.advance(1);
                    if (window.elapsed().compareTo(duration.plusSeconds(60)) > 0) {
                        throw new IOException("h2load did not finish in time");
                    }
                }
                window.close();
                window.sampleLiveHeap();
                String text = Files.readString(output, StandardCharsets.UTF_8);
                LoadResult result = H2Load.parse(text, log, windowStartMicros, scenario.defaultConnections());
                return window.measurement(server, scenario, round, result, baseline);
            } finally {
                h2.destroyForcibly();
                Files.deleteIfExists(log);
            }
        }
    }

    /** The measurement window as the lab sees it: the server's CPU time at both edges, RSS samples inside. */
    private static final class Window {
        private final long pid;
        private final long startNanos;
        private final long startCpu;
        private final List<Long> rss = new ArrayList<>();
        private long endNanos;
        private long endCpu;
        private long liveHeap;

        private Window(long pid) throws IOException {
            this.pid = pid;
            this.startCpu = ProcessProbe.cpuNanos(pid);
            this.startNanos = System.nanoTime();
        }

        static Window open(long pid) throws IOException {
            return new Window(pid);
        }

        void sampleRss() throws IOException {
            rss.add(ProcessProbe.rssBytes(pid));
        }

        Duration elapsed() {
            return Duration.ofNanos(System.nanoTime() - startNanos);
        }

        void close() throws IOException {
            endCpu = ProcessProbe.cpuNanos(pid);
            endNanos = System.nanoTime();
            sampleRss();
        }

        /** After the window, so the full GC it forces lands outside the CPU and latency figures. */
        void sampleLiveHeap() throws IOException, InterruptedException {
            liveHeap = ProcessProbe.liveHeapBytes(pid);
        }

        BusyMeasurement measurement(ServerKind server, BusyScenario scenario, int round, LoadResult result,
                                    IdleSample baseline) {
            return new BusyMeasurement(server, scenario, round, result, endCpu - startCpu, endNanos - startNanos,
                    SampleMath.median(rss), baseline, liveHeap);
        }
    }
}
