package dev.shuttle.lab;

import dev.shuttle.lab.clients.ClientKind;
import dev.shuttle.lab.pool.PoolExperiment;
import dev.shuttle.lab.pool.PoolResult;
import dev.shuttle.lab.pool.PoolSettings;
import dev.shuttle.lab.report.PoolReport;
import dev.shuttle.lab.report.ProgressSink;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code shuttle lab pool}: seed 003's bursts and per-call clients. */
@Command(name = "pool", mixinStandardHelpOptions = true,
        description = "5 bursts of 30 concurrent calls per client (new connections per burst), and 100 calls "
                + "each on a new client never closed (connections left open at the server).")
final class LabPoolCommand implements Callable<Integer> {
    @Option(names = "--clients", defaultValue = "shuttle,jdk,okhttp,apache,jetty",
            description = "Comma-separated clients (default ${DEFAULT-VALUE}); shuttle also runs with Go's idle "
                    + "limit of 2 per host.")
    String clients;

    @Option(names = "--bursts", defaultValue = "5", description = "Bursts per client (default ${DEFAULT-VALUE}).")
    int bursts;

    @Option(names = "--concurrency", defaultValue = "30",
            description = "Calls per burst (default ${DEFAULT-VALUE}).")
    int concurrency;

    @Option(names = "--per-call", defaultValue = "100",
            description = "Calls in the per-call-client case (default ${DEFAULT-VALUE}).")
    int perCall;

    @Option(names = "--dial-delay", defaultValue = "0ms", converter = DurationConverter.class,
            description = "Delay added to every new connection (default ${DEFAULT-VALUE}).")
    Duration dialDelay;

    @Mixin
    ReportOptions report;

    @Override
    public Integer call() throws Exception {
        PoolSettings defaults = PoolSettings.defaults(ClientKind.parseList(clients), dialDelay);
        PoolSettings settings = new PoolSettings(defaults.clients(), bursts, concurrency, defaults.holdMillis(),
                defaults.pauseBetween(), perCall, defaults.settle(), dialDelay);
        ProgressSink progress = report.progress();
        PoolResult result = new PoolExperiment(settings, progress).run();
        System.out.print(PoolReport.text(result));
        report.writeJson(PoolReport.json(result));
        return 0;
    }
}
