package dev.shuttle.lab;

import dev.shuttle.lab.clients.ClientKind;
import dev.shuttle.lab.report.HtmlReport;
import dev.shuttle.lab.report.JsonReport;
import dev.shuttle.lab.report.ProgressSink;
import dev.shuttle.lab.report.ReuseTables;
import dev.shuttle.lab.reuse.CellSummary;
import dev.shuttle.lab.reuse.ReuseCase;
import dev.shuttle.lab.reuse.ReuseExperiment;
import dev.shuttle.lab.reuse.ReuseProtocol;
import dev.shuttle.lab.reuse.ReuseServer;
import dev.shuttle.lab.reuse.ReuseResult;
import dev.shuttle.lab.reuse.ReuseSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code shuttle lab reuse}: the seeds' experiment, every case against every client. */
@Command(name = "reuse", mixinStandardHelpOptions = true,
        description = "For each case and client: N sequential GETs that close the body unread (or decode JSON, or "
                + "read to EOF for the control); new connections and bytes (and with --tls, TLS handshakes; over "
                + "HTTP/2, GOAWAYs) counted at the fixture server.")
final class LabReuseCommand implements Callable<Integer> {
    @Option(names = "--requests", defaultValue = "100", description = "Requests per cell (default ${DEFAULT-VALUE}).")
    int requests;

    @Option(names = "--slow-requests", defaultValue = "20",
            description = "Requests per cell for the slow cases tail-100ms and throttle (default ${DEFAULT-VALUE}, "
                    + "as seed 003).")
    int slowRequests;

    @Option(names = "--rounds", defaultValue = "3", description = "Rounds per cell; tables show the median "
            + "(default ${DEFAULT-VALUE}).")
    int rounds;

    @Option(names = "--dial-delay", defaultValue = "0ms", converter = DurationConverter.class,
            description = "Delay added to every new connection by the lab's TCP relay, e.g. 20ms "
                    + "(default ${DEFAULT-VALUE}: direct).")
    Duration dialDelay;

    @Option(names = "--tls",
            description = "HTTPS instead of HTTP: the fixture gets a certificate generated for the run, every client "
                    + "trusts its authority and speaks HTTP/1.1 only (shuttle-h2: h2 through ALPN); TLS handshakes "
                    + "(and resumed ones) are counted at the fixture beside new connections. Combines with "
                    + "--dial-delay.")
    boolean tls;

    @Option(names = "--protocol", defaultValue = "h1",
            description = "What every client speaks: h1 (HTTP/1.1, the default; with --tls over TLS), h2c (HTTP/2 "
                    + "with prior knowledge), h2 (HTTP/2 over TLS through ALPN; implies --tls). Over HTTP/2 the "
                    + "fixture also counts the GOAWAYs it sends before a client closed, and only clients that speak "
                    + "HTTP/2 take part: shuttle-h2, okhttp, jetty, and jdk over h2 only (it has no h2c prior "
                    + "knowledge).")
    String protocol;

    @Option(names = "--server", defaultValue = "shuttle",
            description = "What the clients talk to: shuttle (the lab's fixture, every case and count; default), or "
                    + "a peer over HTTP/2 (--protocol h2c or h2): jetty, netty, nginx (nginx installed). A peer "
                    + "serves the size-only cases (with --cases all, those it can), its connections counted at the "
                    + "lab's relay in front of it.")
    String server;

    @Option(names = "--clients",
            description = "Comma-separated clients (default: every client of the protocol; for h1 "
                    + "shuttle,shuttle-bounded,shuttle-none,shuttle-h2,jdk,okhttp,apache,jetty, for h2c "
                    + "shuttle-h2,okhttp,jetty, for h2 shuttle-h2,okhttp,jdk,jetty); shuttle-h2 is Shuttle over "
                    + "HTTP/2 (h2c with prior knowledge; with --tls, ALPN h2), every other client speaks the "
                    + "protocol.")
    String clients;

    @Option(names = "--cases", defaultValue = "all",
            description = "Comma-separated case ids or 'all' (default). Ids: cl-1k, cl-2k, cl-64k, cl-200k, "
                    + "cl-256k-1, cl-256k+1, cl-1m, chunked-1k ... chunked-1m, pause-10ms, tail-100ms, close, "
                    + "json-cl, json-chunked, json-late-end, throttle, eof-control.")
    String cases;

    @Option(names = "--warmup", defaultValue = "50",
            description = "Unrecorded requests per client before measuring (default ${DEFAULT-VALUE}).")
    int warmup;

    @Mixin
    ReportOptions report;

    @Option(names = "--html", paramLabel = "FILE",
            description = "Also write a self-contained HTML page (table and chart, no network needed).")
    Path html;

    @Override
    public Integer call() throws Exception {
        ReuseProtocol reuseProtocol = ReuseProtocol.byName(protocol);
        if (reuseProtocol == ReuseProtocol.H2C && tls) {
            throw new IllegalArgumentException("--protocol h2c is HTTP/2 without TLS; over TLS use --protocol h2");
        }
        ReuseSettings settings = ReuseSettings.builder()
                .clients(clients == null ? reuseProtocol.defaultClients() : ClientKind.parseList(clients))
                .cases(cases.trim().equalsIgnoreCase("all") ? null : ReuseCase.parseList(cases))
                .requests(requests)
                .slowRequests(slowRequests)
                .rounds(rounds)
                .dialDelay(dialDelay)
                .tls(tls)
                .protocol(reuseProtocol)
                .server(ReuseServer.byName(server))
                .warmup(warmup)
                .build();
        ProgressSink progress = report.progress();
        ReuseResult result = new ReuseExperiment(settings, progress).run();
        System.out.print(ReuseTables.render(result));
        report.writeJson(JsonReport.reuse(result));
        if (html != null) {
            HtmlReport.write(HtmlReport.reuse(result), html);
            System.out.println("HTML written to " + html.toAbsolutePath());
        }
        // Per client: "shuttle:" opens every message of the command, and must not read as the client of that name.
        Map<String, Long> failedByClient = result.summaries().stream().filter(cell -> cell.errors() > 0)
                .collect(Collectors.groupingBy(cell -> cell.client().cliName(), LinkedHashMap::new,
                        Collectors.summingLong(CellSummary::errors)));
        if (!failedByClient.isEmpty()) {
            long failed = failedByClient.values().stream().mapToLong(Long::longValue).sum();
            String byClient = failedByClient.entrySet().stream().map(e -> e.getKey() + " " + e.getValue())
                    .collect(Collectors.joining(", "));
            System.err.println("shuttle: " + failed + " calls failed (" + byClient
                    + "); the cells marked ! count them");
        }
        return 0;
    }
}
