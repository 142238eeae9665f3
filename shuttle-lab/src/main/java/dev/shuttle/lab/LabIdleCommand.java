package dev.shuttle.lab;

import dev.shuttle.lab.idle.IdleExperiment;
import dev.shuttle.lab.idle.IdleResult;
import dev.shuttle.lab.idle.IdleSettings;
import dev.shuttle.lab.report.HtmlReport;
import dev.shuttle.lab.report.IdleReport;
import dev.shuttle.lab.servers.Protocol;
import dev.shuttle.lab.servers.ServerKind;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code shuttle lab idle}: seed 001's idle connections, every Java server side by side. */
@Command(name = "idle", mixinStandardHelpOptions = true,
        description = "For each server (each in its own JVM, same flags): N idle connections held by a client in "
                + "another JVM; RSS, live heap after a full GC and threads (virtual included), per connection.")
final class LabIdleCommand implements Callable<Integer> {
    @Option(names = "--servers", defaultValue = "shuttle,shuttle-noparking,jetty,netty,helidon,undertow,tomcat",
            description = "Comma-separated servers (default ${DEFAULT-VALUE}).")
    String servers;

    @Option(names = "--connections", defaultValue = "1000,5000,10000",
            description = "Comma-separated connection counts (default ${DEFAULT-VALUE}; at most 19000).")
    String connections;

    @Option(names = "--protocol", defaultValue = "h2c",
            description = "h2c (HTTP/2 with prior knowledge), http1 (HTTP/1.1 keep-alive), https (HTTP/1.1 "
                    + "keep-alive over TLS, a certificate generated per run; shuttle, shuttle-noparking, jetty, netty) "
                    + "or h2 (default ${DEFAULT-VALUE}).")
    String protocol;

    @Option(names = "--rounds", defaultValue = "3",
            description = "Rounds, each on a fresh server JVM; tables show the median (default ${DEFAULT-VALUE}).")
    int rounds;

    @Option(names = "--settle", defaultValue = "5s", converter = DurationConverter.class,
            description = "Wait before sampling (default ${DEFAULT-VALUE}).")
    Duration settle;

    @Option(names = "--samples", defaultValue = "5",
            description = "Samples 1 s apart once the connections are idle (default ${DEFAULT-VALUE}).")
    int samples;

    @Mixin
    ReportOptions report;

    @Option(names = "--html", paramLabel = "FILE",
            description = "Also write a self-contained HTML page (tables and charts).")
    Path html;

    @Override
    public Integer call() throws Exception {
        Protocol wanted = Protocol.parse(protocol);
        IdleSettings settings = IdleSettings.defaults(ServerKind.parseList(servers), parseCounts(connections),
                wanted, rounds).withTiming(settle, samples, Math.min(3, samples), Duration.ofSeconds(1));
        if (!anySupported(settings.servers(), wanted)) {
            return 2;
        }
        IdleResult result = new IdleExperiment(settings, report.progress()).run();
        System.out.print(IdleReport.text(result));
        report.writeJson(IdleReport.json(result));
        if (html != null) {
            HtmlReport.write(IdleReport.html(result), html);
            System.out.println("HTML written to " + html.toAbsolutePath());
        }
        return 0;
    }

    static List<Integer> parseCounts(String text) {
        List<Integer> counts = new ArrayList<>();
        for (String part : text.split(",")) {
            if (!part.isBlank()) {
                try {
                    counts.add(Integer.parseInt(part.trim().replace("_", "")));
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("'" + part.trim() + "' is not a connection count");
                }
            }
        }
        return counts;
    }

    /** When no server chosen can serve the protocol, says why for each (one line) and returns false. */
    static boolean anySupported(List<ServerKind> servers, Protocol protocol) {
        List<String> reasons = new ArrayList<>();
        for (ServerKind server : servers) {
            try {
                server.target().checkSupported(protocol);
                return true;
            } catch (dev.shuttle.lab.servers.UnsupportedProtocolException e) {
                reasons.add(server.cliName() + ": " + e.getMessage());
            }
        }
        reasons.forEach(r -> System.err.println("shuttle: " + r));
        return false;
    }
}
