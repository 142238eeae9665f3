package dev.shuttle.lab;

import dev.shuttle.lab.clients.ClientKind;
import dev.shuttle.lab.probe.ProbeExperiment;
import dev.shuttle.lab.probe.ProbeGate;
import dev.shuttle.lab.probe.ProbeReport;
import dev.shuttle.lab.probe.ProbeResult;
import dev.shuttle.lab.probe.ProbeTarget;
import dev.shuttle.lab.report.ProgressSink;
import dev.shuttle.lab.tls.ClientTrust;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code shuttle probe URL}: the reuse experiment against the user's own endpoint. */
@Command(name = "probe", mixinStandardHelpOptions = true,
        description = "N sequential status-only GETs to URL per client, bodies closed unread: connections (from "
                + "each client's trace), reuse ratio, bytes discarded, latency percentiles.")
final class ProbeCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "URL", description = "http:// (or https://) URL to probe.")
    String url;

    @Option(names = "--requests", defaultValue = "20", description = "Requests per client (default ${DEFAULT-VALUE}).")
    int requests;

    @Option(names = "--clients", defaultValue = "shuttle,shuttle-bounded,shuttle-none",
            description = "Comma-separated clients (default ${DEFAULT-VALUE}); any of "
                    + "shuttle, shuttle-bounded, shuttle-none, shuttle-h2 (HTTP/2: h2c with prior knowledge on "
                    + "http, ALPN h2 on https), jdk, okhttp, apache, jetty.")
    String clients;

    @Option(names = "--cacert", paramLabel = "FILE",
            description = "https: every client trusts exactly the certificates in this PEM file instead of the JDK's "
                    + "trust store.")
    Path caCert;

    @Option(names = {"-k", "--insecure"},
            description = "https: every client accepts any certificate for any host name. For tests only.")
    boolean insecure;

    @Option(names = "--timeout", defaultValue = "10s", converter = DurationConverter.class,
            description = "Connect and response timeout per call (default ${DEFAULT-VALUE}).")
    Duration timeout;

    @Option(names = "--warmup", defaultValue = "20",
            description = "Calls per client against the lab's own local fixture before probing, so JVM warm-up does "
                    + "not land in the probe's latencies (default ${DEFAULT-VALUE}; 0 to skip).")
    int warmup;

    @Option(names = "--min-reuse", paramLabel = "R",
            description = "CI gate: every client's reuse ratio (requests on a connection opened earlier / requests) "
                    + "must be at least R, e.g. 0.95; else exit 3 with a one-line reason on stderr.")
    Double minReuse;

    @Option(names = "--max-handshakes", paramLabel = "N",
            description = "CI gate: every client may make at most N TLS handshakes (one per new https connection); "
                    + "else exit 3. Exit codes: 0 pass, 1 unreachable (no call completed), 2 usage, 3 bound not met, "
                    + "4 cannot judge (a client that cannot count its connections, such as jdk).")
    Integer maxHandshakes;

    @Mixin
    ReportOptions report;

    @Override
    public Integer call() throws Exception {
        URI uri;
        ClientTrust trust;
        try {
            uri = ProbeTarget.parse(url);
            trust = caCert == null && !insecure ? null : ClientTrust.fromOptions(caCert, insecure);
            if (minReuse != null && !(minReuse >= 0 && minReuse <= 1)) {
                throw new IllegalArgumentException("--min-reuse must be in [0, 1], got " + minReuse);
            }
            if (maxHandshakes != null && maxHandshakes < 0) {
                throw new IllegalArgumentException("--max-handshakes must be 0 or more, got " + maxHandshakes);
            }
        } catch (IllegalArgumentException | UncheckedIOException e) {
            System.err.println("shuttle probe: " + e.getMessage());
            return ProbeGate.USAGE;
        }
        ProgressSink progress = report.progress();
        ProbeResult result = new ProbeExperiment(uri, requests, ClientKind.parseList(clients), timeout, trust,
                progress).run(warmup);
        System.out.print(ProbeReport.text(result));
        report.writeJson(ProbeReport.json(result));
        ProbeGate.Verdict verdict = ProbeGate.judge(result, minReuse, maxHandshakes);
        if (verdict.exitCode() != ProbeGate.PASS || minReuse != null || maxHandshakes != null) {
            System.err.println("shuttle probe: " + verdict.reason());
        }
        return verdict.exitCode();
    }
}
