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
 * the lab's client JVM (or, for hot when installed, an {@link ExternalGenerator}: h2load over h2c, wrk over
 * HTTP/1.1; or, with {@code --generator shuttle}, hot from the same client JVM on Shuttle's own client); the
 * server's baseline (live heap after a full GC, then RSS) after start-up and before any load; its CPU time read from
 * /proc at the window's edges, its RSS once a second inside it, and its live heap after a full GC once the window
 * closed. Units of progress: seconds of load.
 */
public final class BusyExperiment {
    private static final Duration CONNECT_TIMEOUT = Duration.ofMinutes(3);

    private final BusySettings settings;
    private final ProgressSink progress;
    private final Path logDir;
    private final Path h2load;
    private final Path wrk;
    private final List<String> notes = new ArrayList<>();

    public BusyExperiment(BusySettings settings, ProgressSink progress) throws IOException {
        this.settings = settings;
        this.progress = progress;
        this.logDir = Files.createTempDirectory("shuttle-lab-busy-");
        this.h2load = H2Load.find();
        this.wrk = Wrk.find();
    }

    /**
     * The external generator the hot scenario runs on, "h2load" or "wrk", or null for a JVM one; when {@code auto}
     * wanted one that is not installed, says so in the notes. (BusySettings refuses a protocol the named one cannot
     * speak.)
     */
    String hotExternalGenerator() {
        String generator = settings.generator();
        String wanted = switch (generator) {
            case "auto" -> settings.protocol() == Protocol.H2C ? "h2load"
                    : settings.protocol() == Protocol.HTTP1 ? "wrk" : null;
            case "h2load", "wrk" -> generator;
            default -> null;
        };
        if (wanted == null || externalBinary(wanted) != null) {
            return wanted;
        }
        String missing = wanted.equals("h2load") ? H2Load.MISSING : Wrk.MISSING;
        if (!generator.equals("auto")) {
            throw new IllegalArgumentException(missing.substring(0, missing.indexOf(':')));
        }
        notes.add(missing);
        System.err.println("shuttle: " + missing);
        return null;
    }

    private Path externalBinary(String generator) {
        return generator.equals("h2load") ? h2load : wrk;
    }

    /** A fresh external generator for one round of hot. */
    private ExternalGenerator externalGenerator(String generator) throws IOException {
        BusyScenario hot = BusyScenario.HOT;
        return generator.equals("h2load")
                ? new H2Load(h2load, hot.defaultConnections(), (int) hot.shape(), logDir)
                : new Wrk(wrk, settings.connectionsOf(hot), logDir);
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
        String hotExternal = settings.scenarios().contains(BusyScenario.HOT) ? hotExternalGenerator() : null;
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
                        rounds.add(scenario == BusyScenario.HOT && hotExternal != null
                                ? measureExternally(server, round, externalGenerator(hotExternal))
                                : measure(server, scenario, round));
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

    /** Hot on an external generator, the server CPU window spanning its measured run. */
    private BusyMeasurement measureExternally(ServerKind server, int round, ExternalGenerator generator)
            throws IOException, InterruptedException {
        BusyScenario scenario = BusyScenario.HOT;
        Duration warmup = settings.warmupOf(scenario);
        Duration duration = settings.durationOf(scenario);
        try (generator; ServerProcess process = ServerProcess.start(server, settings.protocol(), logDir)) {
            IdleSample baseline = IdleExperiment.sample(process.pid());
            Path output = Files.createTempFile(logDir, generator.name() + "-", ".out");
            Process load = generator.warmUpThenStart(process.port(), warmup, duration, output);
            try {
                progress.advance(warmup.toSeconds());
                long windowStartMicros = System.currentTimeMillis() * 1000;
                Window window = Window.open(process.pid());
                while (!load.waitFor(1, TimeUnit.SECONDS)) {
                    window.sampleRss();
                    progress.advance(1);
                    if (window.elapsed().compareTo(duration.plusSeconds(60)) > 0) {
                        throw new IOException(generator.name() + " did not finish in time");
                    }
                }
                window.close();
                window.sampleLiveHeap();
                String text = Files.readString(output, StandardCharsets.UTF_8);
                return window.measurement(server, scenario, round, generator.result(text, windowStartMicros),
                        baseline);
            } finally {
                load.destroyForcibly();
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
