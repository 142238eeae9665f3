package dev.shuttle.lab.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.shuttle.lab.pool.PoolResult;
import dev.shuttle.lab.pool.PoolSettings;
import dev.shuttle.lab.reference.PublishedFigure;
import dev.shuttle.lab.reference.PublishedFigures;
import java.util.ArrayList;
import java.util.List;

/** Terminal and JSON reports of {@code lab pool}. */
public final class PoolReport {
    private PoolReport() {
    }

    public static String text(PoolResult result) {
        PoolSettings s = result.settings();
        StringBuilder out = new StringBuilder();
        out.append("Shuttle Lab: pool sizing under bursts, and a new client per call (seed 003)\n");
        out.append("dial delay ").append(s.dialDelay().toMillis()).append(" ms; ")
                .append(result.environment().summaryLine()).append("\nrun took ")
                .append(Units.duration(result.elapsedNanos())).append("\n\n");

        out.append(s.bursts()).append(" bursts of ").append(s.concurrency())
                .append(" concurrent calls (GET /bytes?n=1024, held ").append(s.holdMillis())
                .append(" ms by the server, read to EOF), ").append(s.pauseBetween().toMillis())
                .append(" ms apart: new connections per burst\n");
        List<String> header = new ArrayList<>();
        header.add("client");
        for (int b = 1; b <= s.bursts(); b++) {
            header.add("burst " + b);
        }
        header.add("errors");
        TextTable bursts = new TextTable(header);
        for (PoolResult.Row row : result.rows()) {
            List<String> cells = new ArrayList<>();
            cells.add(row.subject().name());
            row.newConnectionsPerBurst().forEach(n -> cells.add(Long.toString(n)));
            cells.add(Integer.toString(row.burstErrors()));
            bursts.row(cells);
        }
        out.append(bursts.render());
        for (PublishedFigure f : PublishedFigures.pool()) {
            if (f.caseId().startsWith("pool-bursts")) {
                out.append("  † published, not measured: ").append(f.version()).append(": ").append(f.value())
                        .append(" (").append(f.seed()).append(")\n");
            }
        }

        out.append("\nA new client per call, never closed, body closed unread (GET /bytes?n=2048), ")
                .append(s.perCallCalls()).append(" calls: connections still open at the server ")
                .append(s.settle().toMillis()).append(" ms later\n");
        TextTable perCall = new TextTable(List.of("client", "opened", "still open", "errors"));
        for (PoolResult.Row row : result.rows()) {
            perCall.row(List.of(row.subject().name(), Long.toString(row.perCallNewConnections()),
                    Long.toString(row.perCallOpen()), Integer.toString(row.perCallErrors())));
        }
        out.append(perCall.render());
        for (PublishedFigure f : PublishedFigures.pool()) {
            if (f.caseId().equals("per-call-client")) {
                out.append("  † published, not measured: ").append(f.version()).append(": ").append(f.value())
                        .append(" (").append(f.seed()).append(")\n");
            }
        }
        for (PoolResult.Row row : result.rows()) {
            if (row.firstError() != null) {
                out.append("first error of ").append(row.subject().name()).append(": ").append(row.firstError())
                        .append('\n');
            }
        }
        return out.toString();
    }

    public static ObjectNode json(PoolResult result) {
        PoolSettings s = result.settings();
        ObjectNode root = JsonReport.MAPPER.createObjectNode();
        root.put("experiment", "lab pool");
        ObjectNode p = root.putObject("parameters");
        p.put("bursts", s.bursts());
        p.put("concurrency", s.concurrency());
        p.put("holdMillis", s.holdMillis());
        p.put("pauseBetweenMillis", s.pauseBetween().toMillis());
        p.put("perCallCalls", s.perCallCalls());
        p.put("settleMillis", s.settle().toMillis());
        p.put("dialDelayMillis", s.dialDelay().toMillis());
        root.set("environment", JsonReport.environment(result.environment()));
        root.put("elapsedMillis", result.elapsedNanos() / 1e6);
        ArrayNode rows = root.putArray("clients");
        for (PoolResult.Row row : result.rows()) {
            ObjectNode node = rows.addObject();
            node.put("client", row.subject().kind().cliName());
            node.put("name", row.subject().name());
            node.put("description", row.subject().description());
            node.put("goIdleDefaults", row.subject().goIdleDefaults());
            ArrayNode perBurst = node.putArray("newConnectionsPerBurst");
            row.newConnectionsPerBurst().forEach(perBurst::add);
            node.put("burstErrors", row.burstErrors());
            node.put("perCallNewConnections", row.perCallNewConnections());
            node.put("perCallStillOpen", row.perCallOpen());
            node.put("perCallErrors", row.perCallErrors());
            if (row.firstError() != null) {
                node.put("firstError", row.firstError());
            }
        }
        root.set("published", JsonReport.published(PublishedFigures.pool()));
        return root;
    }
}
