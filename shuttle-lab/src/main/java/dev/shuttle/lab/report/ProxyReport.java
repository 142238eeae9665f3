package dev.shuttle.lab.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.shuttle.lab.proxy.ProxyResult;
import dev.shuttle.lab.proxy.ProxySettings;
import java.util.List;
import java.util.Locale;

/** Terminal and JSON reports of {@code lab proxy}. */
public final class ProxyReport {
    private ProxyReport() {
    }

    public static String text(ProxyResult result, RunEnvironment environment) {
        ProxySettings s = result.settings();
        StringBuilder out = new StringBuilder();
        out.append("Shuttle Lab: reverse proxies whose downstream clients abort mid-body\n");
        out.append(environment.summaryLine()).append('\n');
        out.append(s.requests()).append(" aborted requests per cell (GET /bytes?n=SIZE, each on a new downstream ")
                .append("connection, read half the body up to 4 KiB, then closed), ").append(s.concurrency())
                .append(" at once, after ").append(s.concurrency()).append(" whole requests to warm the proxy; ")
                .append("median of ").append(s.rounds()).append(s.rounds() == 1 ? " round" : " rounds").append("\n\n");
        TextTable table = new TextTable(List.of("proxy", "body", "upstream conns", "per 100", "requests/s",
                "p99 ms", "errors"));
        for (ProxyResult.Cell cell : result.cells()) {
            table.row(List.of(cell.version(), Units.bytes(cell.size()), number(cell.upstreamConnections()),
                    number(cell.perHundred()), String.format(Locale.ROOT, "%.0f", cell.requestsPerSecond()),
                    String.format(Locale.ROOT, "%.2f", cell.p99Millis()), Integer.toString(cell.failed())));
        }
        out.append(table.render());
        out.append("upstream conns: connections the proxy opened to the upstream during the aborted requests\n");
        for (String skipped : result.skipped()) {
            out.append("skipped ").append(skipped).append('\n');
        }
        for (ProxyResult.Cell cell : result.cells()) {
            if (cell.firstFailure() != null) {
                out.append("first error of ").append(cell.version()).append(" at ").append(Units.bytes(cell.size()))
                        .append(": ").append(cell.firstFailure()).append('\n');
            }
        }
        return out.toString();
    }

    private static String number(double value) {
        return value == Math.rint(value) ? String.format(Locale.ROOT, "%.0f", value)
                : String.format(Locale.ROOT, "%.1f", value);
    }

    public static ObjectNode json(ProxyResult result, RunEnvironment environment) {
        ProxySettings s = result.settings();
        ObjectNode root = JsonReport.MAPPER.createObjectNode();
        root.put("experiment", "lab proxy");
        root.put("environment", environment.summaryLine());
        ObjectNode p = root.putObject("parameters");
        p.put("requests", s.requests());
        p.put("concurrency", s.concurrency());
        p.put("rounds", s.rounds());
        ArrayNode sizes = p.putArray("sizes");
        s.sizes().forEach(sizes::add);
        ArrayNode cells = root.putArray("cells");
        for (ProxyResult.Cell cell : result.cells()) {
            ObjectNode c = cells.addObject();
            c.put("proxy", cell.subject().label());
            c.put("version", cell.version());
            c.put("size", cell.size());
            c.put("requests", cell.requests());
            c.put("upstreamConnections", cell.upstreamConnections());
            c.put("upstreamConnectionsPer100", cell.perHundred());
            c.put("requestsPerSecond", cell.requestsPerSecond());
            c.put("p99Millis", cell.p99Millis());
            c.put("errors", cell.failed());
            c.put("rounds", cell.rounds());
        }
        ArrayNode skipped = root.putArray("skipped");
        result.skipped().forEach(skipped::add);
        return root;
    }
}
