package dev.shuttle.lab;

import dev.shuttle.lab.proxy.ProxyExperiment;
import dev.shuttle.lab.proxy.ProxyResult;
import dev.shuttle.lab.proxy.ProxySettings;
import dev.shuttle.lab.proxy.ProxySubject;
import dev.shuttle.lab.report.ProxyReport;
import dev.shuttle.lab.report.RunEnvironment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code shuttle lab proxy}: upstream connections a reverse proxy opens when its clients abort mid-body. */
@Command(name = "proxy", mixinStandardHelpOptions = true,
        description = "Downstream clients that abort mid-body, through Shuttle's reverse proxy, nginx (proxy_pass with "
                + "an upstream keepalive pool) and Go's httputil.ReverseProxy (when installed): upstream connections "
                + "opened per 100 requests, requests/s, p99.")
final class LabProxyCommand implements Callable<Integer> {
    @Option(names = "--proxies", defaultValue = "shuttle,nginx,go",
            description = "Comma-separated proxies (default ${DEFAULT-VALUE}); missing tools are skipped.")
    String proxies;

    @Option(names = "--sizes", defaultValue = "1024,65536,1048576",
            description = "Comma-separated body sizes in bytes (default ${DEFAULT-VALUE}).")
    String sizes;

    @Option(names = "--requests", defaultValue = "100",
            description = "Aborted requests per cell (default ${DEFAULT-VALUE}).")
    int requests;

    @Option(names = "--concurrency", defaultValue = "1",
            description = "Downstream clients at once (default ${DEFAULT-VALUE}).")
    int concurrency;

    @Option(names = "--rounds", defaultValue = "1",
            description = "Rounds per cell; the table shows medians (default ${DEFAULT-VALUE}).")
    int rounds;

    @Mixin
    ReportOptions report;

    @Override
    public Integer call() throws Exception {
        List<Integer> bodySizes = new ArrayList<>();
        for (String size : sizes.split(",")) {
            try {
                bodySizes.add(Integer.parseInt(size.strip()));
            } catch (NumberFormatException e) {
                System.err.println("shuttle lab proxy: --sizes takes byte counts, got " + size.strip());
                return 2;
            }
        }
        ProxySettings settings;
        try {
            settings = new ProxySettings(ProxySubject.parseList(proxies), bodySizes, requests, concurrency, rounds);
        } catch (IllegalArgumentException e) {
            System.err.println("shuttle lab proxy: " + e.getMessage());
            return 2;
        }
        ProxyResult result = new ProxyExperiment(settings, report.progress()).run();
        RunEnvironment environment = RunEnvironment.capture();
        System.out.print(ProxyReport.text(result, environment));
        report.writeJson(ProxyReport.json(result, environment));
        return 0;
    }
}
