package dev.shuttle.lab.probe;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.shuttle.lab.report.JsonReport;
import dev.shuttle.lab.report.TextTable;
import dev.shuttle.lab.report.Units;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** Terminal and JSON reports of {@code shuttle probe}. */
public final class ProbeReport {
    private ProbeReport() {
    }

    public static String text(ProbeResult result) {
        StringBuilder out = new StringBuilder();
        out.append("probe ").append(result.uri()).append(": ").append(result.requests())
                .append(" sequential GETs per client, body closed unread")
                .append(result.trust() == null ? "" : "; HTTP/1.1 over TLS, trusting " + result.trust())
                .append('\n');
        TextTable table = new TextTable(List.of("client", "ok", "status", "connections", "reuse", "discarded",
                "p50 ms", "p90 ms", "p99 ms", "max ms", "total ms"));
        for (ProbeResult.Row row : result.rows()) {
            boolean any = row.completed() > 0;
            table.row(List.of(row.client().cliName(),
                    row.completed() + "/" + result.requests(),
                    row.statuses().entrySet().stream().map(e -> e.getKey() + "×" + e.getValue())
                            .collect(Collectors.joining(" ")),
                    row.connectionsOpened() < 0 ? "n/a" : Long.toString(row.connectionsOpened()),
                    Double.isNaN(row.reuseRatio()) ? "n/a"
                            : String.format(Locale.ROOT, "%.0f%%", row.reuseRatio() * 100),
                    row.bytesDiscarded() < 0 ? "n/a" : Units.bytes(row.bytesDiscarded()),
                    any ? Units.millis(row.p50Nanos()) : "-",
                    any ? Units.millis(row.p90Nanos()) : "-",
                    any ? Units.millis(row.p99Nanos()) : "-",
                    any ? Units.millis(row.maxNanos()) : "-",
                    Units.millis(row.wallNanos())));
        }
        out.append(table.render());
        out.append("connections: from each client's own trace (n/a: the JDK client has no connection hook); reuse: "
                + "requests that did not open a connection.\n");
        for (ProbeResult.Row row : result.rows()) {
            if (row.ownView().get("tlsHandshakes") instanceof Number handshakes) {
                out.append(row.client().cliName()).append(": ").append(handshakes).append(" TLS handshakes, ")
                        .append(row.ownView().get("tlsResumed")).append(" of them resumed (its own trace)\n");
            }
        }
        for (ProbeResult.Row row : result.rows()) {
            if (row.error() != null) {
                out.append(row.client().cliName()).append(": stopped: ").append(row.error()).append('\n');
            }
        }
        return out.toString();
    }

    public static ObjectNode json(ProbeResult result) {
        ObjectMapper mapper = new ObjectMapper();
        ObjectNode root = mapper.createObjectNode();
        root.put("experiment", "probe");
        root.put("url", result.uri().toString());
        root.put("requests", result.requests());
        if (result.trust() != null) {
            root.put("tlsTrust", result.trust());
        }
        root.set("environment", JsonReport.environment(result.environment()));
        ArrayNode rows = root.putArray("clients");
        for (ProbeResult.Row row : result.rows()) {
            ObjectNode node = rows.addObject();
            node.put("client", row.client().cliName());
            node.put("completed", row.completed());
            ObjectNode statuses = node.putObject("statuses");
            row.statuses().forEach((k, v) -> statuses.put(Integer.toString(k), v));
            if (row.connectionsOpened() >= 0) {
                node.put("connectionsOpened", row.connectionsOpened());
                node.put("reuseRatio", row.reuseRatio());
            } else {
                node.putNull("connectionsOpened");
                node.putNull("reuseRatio");
            }
            if (row.bytesDiscarded() >= 0) {
                node.put("bytesDiscarded", row.bytesDiscarded());
            } else {
                node.putNull("bytesDiscarded");
            }
            node.put("p50Millis", row.p50Nanos() / 1e6);
            node.put("p90Millis", row.p90Nanos() / 1e6);
            node.put("p99Millis", row.p99Nanos() / 1e6);
            node.put("maxMillis", row.maxNanos() / 1e6);
            node.put("wallMillis", row.wallNanos() / 1e6);
            if (row.error() != null) {
                node.put("error", row.error());
            }
            if (!row.ownView().isEmpty()) {
                node.set("clientView", JsonReport.fromMap(row.ownView()));
            }
        }
        return root;
    }
}
