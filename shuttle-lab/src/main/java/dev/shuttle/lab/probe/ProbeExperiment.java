package dev.shuttle.lab.probe;

import dev.shuttle.lab.VirtualThreads;
import dev.shuttle.lab.clients.BodyUse;
import dev.shuttle.lab.clients.CallWatchdog;
import dev.shuttle.lab.clients.CallResult;
import dev.shuttle.lab.clients.ClientKind;
import dev.shuttle.lab.clients.ClientOptions;
import dev.shuttle.lab.clients.LabClient;
import dev.shuttle.lab.fixture.LabTarget;
import dev.shuttle.lab.report.ProgressSink;
import dev.shuttle.lab.report.RunEnvironment;
import dev.shuttle.lab.tls.ClientTrust;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * The reuse experiment against someone else's endpoint: for each client, N sequential GETs whose bodies are closed
 * unread. The server is not ours, so connections come from each client's own trace. A client whose call fails stops
 * there and reports why; the others still run. Over https every client speaks HTTP/1.1 only ({@code shuttle-h2}: h2
 * through ALPN, and h2c with prior knowledge over http) and trusts the same thing (the JDK's store, {@code --cacert}'s
 * authorities, or anything with {@code --insecure}), each with a session cache of its own.
 */
public final class ProbeExperiment {
    private final URI uri;
    private final int requests;
    private final List<ClientKind> clients;
    private final ClientOptions options;
    private final ProgressSink progress;
    private final Duration watchdogLimit;
    /** No trust was given: TLS failures then suggest --cacert and --insecure. */
    private final boolean defaultTrust;

    public ProbeExperiment(URI uri, int requests, List<ClientKind> clients, Duration timeout, ProgressSink progress) {
        this(uri, requests, clients, timeout, null, progress);
    }

    /**
     * @param trust for an https URL, whom every client trusts (each through a TLS context of its own); null means the
     *              JDK's trust store. Ignored for http.
     */
    public ProbeExperiment(URI uri, int requests, List<ClientKind> clients, Duration timeout, ClientTrust trust,
                           ProgressSink progress) {
        if (requests < 1) {
            throw new IllegalArgumentException("--requests must be at least 1");
        }
        this.uri = uri;
        this.requests = requests;
        this.clients = List.copyOf(clients);
        boolean https = "https".equalsIgnoreCase(uri.getScheme());
        this.defaultTrust = trust == null;
        this.options = ClientOptions.builder().connectTimeout(timeout).requestTimeout(timeout)
                .trust(https ? (trust != null ? trust : ClientTrust.system()) : null)
                .build();
        this.progress = progress;
        // the clients' own timeouts should fire first; the watchdog only catches a client that ignores them
        this.watchdogLimit = timeout.plusSeconds(5);
    }

    /**
     * Probes, after warming each client up against the lab's own fixture (never the user's endpoint) when
     * {@code warmup} is positive, so the first probed call does not carry the JVM's class loading and compilation.
     */
    public ProbeResult run(int warmup) {
        RunEnvironment environment = RunEnvironment.capture();
        List<ProbeResult.Row> rows = new ArrayList<>();
        progress.begin("probe " + uri, (long) requests * clients.size());
        try (CallWatchdog watchdog = new CallWatchdog(watchdogLimit)) {
            if (warmup > 0) {
                VirtualThreads.call(() -> {
                    warmUp(warmup, watchdog);
                    return null;
                });
            }
            for (ClientKind kind : clients) {
                progress.phase(kind.cliName());
                rows.add(VirtualThreads.call(() -> probe(kind, watchdog)));
            }
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("probe failed: " + e, e);
        } finally {
            progress.finish();
        }
        return new ProbeResult(uri, requests, environment, rows,
                options.trust() == null ? null : options.trust().description());
    }

    public ProbeResult run() {
        return run(0);
    }

    /** Over https the local fixture speaks TLS too, so the warm-up heats the TLS code the probe will run. */
    private void warmUp(int calls, CallWatchdog watchdog) throws IOException {
        try (LabTarget local = LabTarget.start(Duration.ZERO, options.trust() != null)) {
            URI localUri = local.uri("/bytes?n=1024");
            ClientOptions localOptions = ClientOptions.builder().connectTimeout(options.connectTimeout())
                    .requestTimeout(options.requestTimeout()).trust(local.trust()).build();
            for (ClientKind kind : clients) {
                progress.phase("warming up " + kind.cliName() + " on the local fixture");
                try (LabClient client = kind.create(localOptions)) {
                    for (int i = 0; i < calls; i++) {
                        watchdog.call(client, localUri, i % 2 == 0 ? BodyUse.READ_TO_EOF : BodyUse.CLOSE_UNREAD);
                    }
                } catch (IOException | RuntimeException e) {
                    // warming up only heats code; the probe itself reports any real failure
                }
            }
        }
    }

    private ProbeResult.Row probe(ClientKind kind, CallWatchdog watchdog) {
        Histogram latencies = new Histogram(3);
        Map<Integer, Integer> statuses = new TreeMap<>();
        int completed = 0;
        String error = null;
        long start = System.nanoTime();
        long wall;
        long connections;
        Map<String, Object> ownView;
        LabClient client;
        try {
            client = kind.create(options);
        } catch (RuntimeException e) {
            return new ProbeResult.Row(kind, 0, statuses, -1, -1, 0, 0, 0, 0, 0,
                    kind.cliName() + " could not be created: " + e.getMessage(), Map.of());
        }
        try (client) {
            for (int i = 0; i < requests; i++) {
                long callStart = System.nanoTime();
                try {
                    CallResult result = watchdog.call(client, uri, BodyUse.CLOSE_UNREAD);
                    statuses.merge(result.status(), 1, Integer::sum);
                    completed++;
                    latencies.recordValue(System.nanoTime() - callStart);
                    progress.advance(1);
                } catch (IOException | RuntimeException e) {
                    error = ProbeErrors.describe(e, uri) + (defaultTrust ? ProbeErrors.tlsHint(e) : "");
                    progress.advance(requests - i);
                    break;
                }
            }
            wall = System.nanoTime() - start;
            connections = client.connectionsOpened();
            ownView = client.ownView();
        }
        long discarded = ownView.get("bytesDiscarded") instanceof Number n ? n.longValue() : -1;
        return new ProbeResult.Row(kind, completed, statuses, connections, discarded,
                latencies.getValueAtPercentile(50), latencies.getValueAtPercentile(90),
                latencies.getValueAtPercentile(99), latencies.getMaxValue(), wall, error, ownView);
    }
}
