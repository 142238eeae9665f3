package dev.shuttle.lab.reuse;

import dev.shuttle.lab.VirtualThreads;
import dev.shuttle.lab.clients.BodyUse;
import dev.shuttle.lab.clients.CallWatchdog;
import dev.shuttle.lab.clients.CallResult;
import dev.shuttle.lab.clients.ClientKind;
import dev.shuttle.lab.clients.ClientOptions;
import dev.shuttle.lab.clients.Feature;
import dev.shuttle.lab.clients.LabClient;
import dev.shuttle.lab.fixture.LabTarget;
import dev.shuttle.lab.fixture.TargetCounts;
import dev.shuttle.lab.report.ProgressSink;
import dev.shuttle.lab.report.RunEnvironment;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.HdrHistogram.Histogram;

/**
 * The seeds' HTTP/1 experiment: for each round, case and client, a fresh client makes N sequential requests with no
 * pause between them (the race with a background drain is the point), using the body as the case says. New
 * connections and bytes written are counted at the fixture; each cell waits until its connections are closed (and
 * none is still in the relay's delay) before reading the counts, so nothing leaks into the next cell. With {@code tls}, the same over HTTPS: every client trusts
 * the fixture's generated authority through a TLS context of its own (so it resumes only its own sessions), speaks
 * HTTP/1.1 only (but {@code shuttle-h2}, which takes h2 through ALPN), and the fixture also counts handshakes, resumed
 * ones apart. {@code shuttle-h2} speaks h2c with prior knowledge over plaintext: the fixture serves both protocols
 * on one port and counts their connections alike. With {@code protocol} h2c or h2 every client speaks HTTP/2 and
 * the fixture also counts the GOAWAY frames it sends before a client closed. With a peer {@code server}, the clients
 * talk to that server through the relay, which counts their connections and the bytes it passed on.
 */
public final class ReuseExperiment implements AutoCloseable {
    /** Longest wait for a cell's connections to close after its client was closed. */
    private static final Duration SETTLE_TIMEOUT = Duration.ofSeconds(5);
    private static final long HISTOGRAM_MAX_NANOS = Duration.ofMinutes(2).toNanos();

    private final ReuseSettings settings;
    private final ProgressSink progress;
    private final CallWatchdog watchdog = new CallWatchdog(CallWatchdog.DEFAULT_LIMIT);

    public ReuseExperiment(ReuseSettings settings, ProgressSink progress) {
        this.settings = settings;
        this.progress = progress;
    }

    public ReuseResult run() throws IOException, InterruptedException {
        long start = System.nanoTime();
        RunEnvironment environment = RunEnvironment.capture();
        List<CellMeasurement> measurements = new ArrayList<>();
        progress.begin("lab reuse", settings.totalRequests());
        try (LabTarget target = startTarget()) {
            // Through squid over HTTP/1.1 against the fixture: no HTTP proxy carries h2c, and a peer serves HTTP/2.
            boolean proxy = !settings.protocol().isHttp2() && !settings.server().isPeer()
                    && settings.cases().stream().anyMatch(c -> c.feature() == Feature.PROXY) && target.startProxy();
            warmUp(target);
            for (int round = 1; round <= settings.rounds(); round++) {
                for (ReuseCase reuseCase : settings.cases()) {
                    if (reuseCase.feature() == Feature.PROXY && !proxy) {
                        continue; // no squid, or no proxied HTTP/1.1: the row stays empty, the report says why
                    }
                    for (ClientKind client : orderFor(settings.clients(), round)) {
                        if (!reuseCase.appliesTo(client)) {
                            continue;
                        }
                        progress.phase(client.cliName() + " × " + reuseCase.id() + ", round " + round + "/"
                                + settings.rounds());
                        measurements.add(measureCell(target, client, reuseCase, round));
                    }
                }
            }
        } finally {
            progress.finish();
            watchdog.close();
        }
        return new ReuseResult(settings, environment, measurements, summarise(measurements),
                System.nanoTime() - start);
    }

    /** The fixture; or the peer server, behind the relay that counts connections. */
    private LabTarget startTarget() throws IOException {
        ReuseServer server = settings.server();
        if (server.isPeer()) {
            return LabTarget.startPeer(server.label(), server::startPeer, settings.dialDelay(), settings.tls());
        }
        return LabTarget.start(settings.dialDelay(), settings.tls());
    }

    /**
     * The clients in the order one round runs them: the first round in the order given, every later one shuffled
     * with the round number as the seed (so a run repeats). The cell that runs right after another client pays part
     * of that client's clean-up (its closed connections, stopped threads, garbage): in a fixed or merely rotated
     * order the same client always follows the same one, and with Jetty (100 closed connections per cell) before it,
     * the default policy's cells on identical code paths (read to EOF, JSON) ran up to 2.9x slower (issue 14).
     */
    static List<ClientKind> orderFor(List<ClientKind> clients, int round) {
        List<ClientKind> order = new ArrayList<>(clients);
        if (round > 1) {
            Collections.shuffle(order, new Random(round));
        }
        return order;
    }

    private void warmUp(LabTarget target) throws InterruptedException {
        if (settings.warmup() == 0) {
            return;
        }
        URI uri = target.uri("/bytes?n=1024");
        for (ClientKind kind : settings.clients()) {
            progress.phase("warming up " + kind.cliName());
            try (LabClient client = kind.create(clientOptions(target))) {
                VirtualThreads.call(() -> {
                    for (int i = 0; i < settings.warmup(); i++) {
                        watchdog.call(client, uri, i % 2 == 0 ? BodyUse.READ_TO_EOF : BodyUse.CLOSE_UNREAD);
                    }
                    return null;
                });
            } catch (Exception e) {
                // the warm-up only heats code; a failure here shows up again, counted, in the measured cells
            }
            target.awaitQuiet(SETTLE_TIMEOUT);
        }
    }

    /** Runs one round of one cell with a client of its own, its calls on a virtual thread under the watchdog. */
    CellMeasurement measureCell(LabTarget target, ClientKind kind, ReuseCase reuseCase, int round)
            throws InterruptedException {
        try {
            return VirtualThreads.call(() -> measureCellHere(target, kind, reuseCase, round));
        } catch (InterruptedException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("cell " + kind.cliName() + " × " + reuseCase.id() + " failed", e);
        }
    }

    private CellMeasurement measureCellHere(LabTarget target, ClientKind kind, ReuseCase reuseCase, int round)
            throws InterruptedException {
        int requests = settings.requestsFor(reuseCase);
        URI uri = target.uri(reuseCase.pathAndQuery());
        Histogram latencies = new Histogram(HISTOGRAM_MAX_NANOS, 3);
        // Through the proxy the server sees squid's connections: the clients' are counted in front of squid.
        boolean proxied = reuseCase.feature() == Feature.PROXY;
        TargetCounts before = target.counts(proxied);
        int errors = 0;
        String firstError = null;
        Map<String, Object> ownView;
        long wall;
        // The previous cell's garbage (peer clients allocate whole bodies) is collected here, not inside this cell.
        System.gc();
        try (LabClient client = kind.create(clientOptions(target, reuseCase))) {
            long cellStart = System.nanoTime();
            for (int i = 0; i < requests; i++) {
                long callStart = System.nanoTime();
                try {
                    CallResult result = watchdog.call(client, uri, reuseCase.bodyUse());
                    if (result.status() != 200) {
                        errors++;
                        firstError = firstError != null ? firstError : "status " + result.status();
                    }
                } catch (CallWatchdog.CallTimedOutException e) {
                    errors++;
                    firstError = firstError != null ? firstError : e.getMessage() + "; server: " + target.describe();
                } catch (IOException | RuntimeException e) {
                    errors++;
                    firstError = firstError != null ? firstError : e.toString();
                }
                latencies.recordValue(Math.min(System.nanoTime() - callStart, HISTOGRAM_MAX_NANOS));
                progress.advance(1);
            }
            wall = System.nanoTime() - cellStart;
            ownView = new LinkedHashMap<>(client.ownView());
        }
        // Closing the client closed its connections; the server's counts of bytes and of GOAWAYs before the client
        // closed are final once it saw them close. Dials the client still had in the relay's delay when it closed
        // reach the fixture later: they are this cell's connections, so the cell waits for them too.
        if (!target.awaitQuiet(SETTLE_TIMEOUT)) {
            ownView.put("warning", "connections still open at the relay or the server " + SETTLE_TIMEOUT.toSeconds()
                    + " s after the client closed; counts may be short");
        }
        TargetCounts cell = target.counts(proxied).minus(before);
        long goAways = settings.protocol().isHttp2() ? cell.goAways() : -1; // HTTP/2 runs report them
        return new CellMeasurement(kind, reuseCase, round, requests, cell.connections(), cell.bytes(),
                cell.tlsHandshakes(), cell.tlsResumed(), goAways, wall,
                latencies.getValueAtPercentile(50), latencies.getValueAtPercentile(99), errors, firstError,
                ownView);
    }

    /**
     * Every client's defaults, except that over TLS it trusts the target's authority (and nothing else), and that
     * in an HTTP/2 run it speaks HTTP/2 only.
     */
    private ClientOptions clientOptions(LabTarget target) {
        return ClientOptions.builder().trust(target.trust()).http2(settings.protocol().isHttp2()).build();
    }

    /** As {@link #clientOptions(LabTarget)}, with what the case's feature needs switched on. */
    private ClientOptions clientOptions(LabTarget target, ReuseCase reuseCase) {
        return ClientOptions.builder().trust(target.trust()).http2(settings.protocol().isHttp2())
                .followRedirects(reuseCase.feature() == Feature.REDIRECTS)
                .proxy(reuseCase.feature() == Feature.PROXY ? target.proxyAddress() : null)
                .build();
    }

    @Override
    public void close() {
        watchdog.close();
    }

    /** One summary per cell, in table order: cases outer, clients inner. */
    private List<CellSummary> summarise(List<CellMeasurement> measurements) {
        List<CellSummary> summaries = new ArrayList<>();
        for (ReuseCase reuseCase : settings.cases()) {
            for (ClientKind client : settings.clients()) {
                List<CellMeasurement> rounds = measurements.stream()
                        .filter(m -> m.reuseCase() == reuseCase && m.client() == client)
                        .toList();
                if (!rounds.isEmpty()) {
                    summaries.add(CellSummary.of(rounds));
                }
            }
        }
        return summaries;
    }
}
