package dev.shuttle.lab;

import dev.shuttle.lab.busy.BusyExperiment;
import dev.shuttle.lab.busy.BusyResult;
import dev.shuttle.lab.busy.BusyScenario;
import dev.shuttle.lab.busy.BusySettings;
import dev.shuttle.lab.report.BusyReport;
import dev.shuttle.lab.report.HtmlReport;
import dev.shuttle.lab.servers.Protocol;
import dev.shuttle.lab.servers.ServerKind;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code shuttle lab busy}: seed 001's mostly-idle and hot shapes, every Java server side by side. */
@Command(name = "busy", mixinStandardHelpOptions = true,
        description = "For each server (own JVM, same flags): mostly idle (5 000 connections, a request every 5 s "
                + "each) and hot (32 connections x 4 streams, closed loop): requests/s, latency p50/p99/p99.9, "
                + "server CPU, live heap after a GC, RSS growth over the server's own baseline (after start-up and "
                + "a GC), and parking on against off when shuttle and shuttle-noparking both run.")
final class LabBusyCommand implements Callable<Integer> {
    @Option(names = "--servers", defaultValue = "shuttle,shuttle-noparking,jetty,netty,helidon,undertow,tomcat",
            description = "Comma-separated servers (default ${DEFAULT-VALUE}).")
    String servers;

    @Option(names = "--scenario", defaultValue = "both",
            description = "mostly-idle, hot or both (default ${DEFAULT-VALUE}).")
    String scenario;

    @Option(names = "--duration", converter = DurationConverter.class,
            description = "Measured window after the warm-up (default: 60s mostly idle, 20s hot).")
    Duration duration;

    @Option(names = "--connections",
            description = "Connections for mostly idle (default 5000; hot is always 32 x 4 streams).")
    Integer connections;

    @Option(names = "--protocol", defaultValue = "h2c",
            description = "h2c, http1, https (HTTP/1.1 over TLS; shuttle, shuttle-noparking, jetty, netty) or h2 "
                    + "(default ${DEFAULT-VALUE}).")
    String protocol;

    @Option(names = "--rounds", defaultValue = "1",
            description = "Rounds per server, each on a fresh JVM; tables show the median (default ${DEFAULT-VALUE}).")
    int rounds;

    @Option(names = "--generator", defaultValue = "auto",
            description = "Load for hot: auto (when installed h2load over h2c, wrk over http1; else the lab's), lab, "
                    + "h2load (h2c only), wrk (http1 only; 2 threads, 128 connections) or shuttle (Shuttle's own "
                    + "client, one per connection: h2c with prior knowledge, or HTTP/1.1 over http1; refused over "
                    + "https and h2) (default ${DEFAULT-VALUE}).")
    String generator;

    @Mixin
    ReportOptions report;

    @Option(names = "--html", paramLabel = "FILE", description = "Also write a self-contained HTML page.")
    Path html;

    @Override
    public Integer call() throws Exception {
        Protocol wanted = Protocol.parse(protocol);
        BusySettings settings = new BusySettings(ServerKind.parseList(servers), BusyScenario.parseList(scenario),
                wanted, rounds, duration, connections, generator);
        if (!LabIdleCommand.anySupported(settings.servers(), wanted)) {
            return 2;
        }
        BusyResult result = new BusyExperiment(settings, report.progress()).run();
        System.out.print(BusyReport.text(result));
        report.writeJson(BusyReport.json(result));
        if (html != null) {
            HtmlReport.write(BusyReport.html(result), html);
            System.out.println("HTML written to " + html.toAbsolutePath());
        }
        return 0;
    }
}
