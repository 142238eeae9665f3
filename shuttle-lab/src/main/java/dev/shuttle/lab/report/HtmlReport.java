package dev.shuttle.lab.report;

import dev.shuttle.lab.clients.ClientKind;
import dev.shuttle.lab.reference.GoRelease;
import dev.shuttle.lab.reference.PublishedFigure;
import dev.shuttle.lab.reference.PublishedFigures;
import dev.shuttle.lab.reuse.CellSummary;
import dev.shuttle.lab.reuse.ReuseCase;
import dev.shuttle.lab.reuse.ReuseResult;
import dev.shuttle.lab.reuse.ReuseSettings;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * The self-contained HTML page of a {@code lab reuse} run: parameters, machine, a chart of new connections per case
 * and client (inline SVG), the tables of the terminal report with the published Go figures as marked rows, and the
 * published figures' sources. No script, no external resource: it opens offline and in headless browsers.
 */
public final class HtmlReport {
    private HtmlReport() {
    }

    public static void write(String html, Path file) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Files.writeString(file, html, StandardCharsets.UTF_8);
    }

    public static String reuse(ReuseResult result) {
        ReuseSettings s = result.settings();
        StringBuilder page = new StringBuilder();
        page.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n")
                .append("<title>Shuttle Lab: lab reuse</title>\n<style>\n").append(Html.STYLE)
                .append("</style>\n</head>\n<body>\n");
        page.append("<h1>Shuttle Lab: connection reuse when the caller closes the body unread (")
                .append(Html.escape(ReuseTables.protocols(s))).append(")")
                .append(Html.escape(ReuseTables.against(s))).append("</h1>\n");
        for (String line : ReuseTables.parameters(result).split("\n")) {
            page.append("<p class=\"meta\">").append(Html.escape(line)).append("</p>\n");
        }
        page.append("<p class=\"meta\">Started ").append(Html.escape(result.environment().startedAt().toString()))
                .append(", JVM vendor ").append(Html.escape(result.environment().javaVendor()))
                .append(", max heap ").append(Units.bytes(result.environment().maxHeapBytes())).append("</p>\n");

        page.append("<h2>New connections per case and client</h2>\n");
        page.append(chart(result, "New connections", CellSummary::newConnections));

        page.append("<h2>New connections per cell (median of ").append(s.rounds())
                .append(" rounds; min-max when they differ)</h2>\n");
        page.append(table(result, true, ReuseTables::connections));
        page.append("<p class=\"note\">Rows in italics are <b>published figures from the seeds, not "
                + "measurements</b>: Go 1.27 under shuttle-bounded and Go 1.26 under shuttle-none, the Shuttle "
                + "policies that behave like them; per 100 sequential requests unless they say \"of N\"; "
                + "'-' where the seeds give no figure. Sources below.</p>\n");
        if (s.protocol().isHttp2() && !s.server().isPeer()) {
            page.append("<h2>").append(Html.escape(ReuseTables.goAwaysTitle(s))).append("</h2>\n");
            page.append(table(result, false, ReuseTables::goAways));
        }
        if (s.tls() && !s.server().isPeer()) {
            page.append("<h2>").append(ReuseTables.HANDSHAKES_TITLE).append(" (median of ").append(s.rounds())
                    .append(" rounds; min-max when they differ)</h2>\n");
            page.append(chart(result, "TLS handshakes", CellSummary::tlsHandshakes));
            page.append(table(result, false, ReuseTables::handshakes));
            page.append("<h2>").append(Html.escape(ReuseTables.RESUMED_TITLE)).append("</h2>\n");
            page.append(table(result, false, c -> Long.toString(c.tlsResumed())));
        }
        page.append("<h2>").append(ReuseTables.bytesTitle(s)).append("</h2>\n");
        page.append(table(result, false, c -> Units.bytes(c.serverBytes())));
        page.append("<h2>Time for the cell's requests, ms (median)</h2>\n");
        page.append(table(result, false, c -> Units.millis(c.wallNanos())));
        page.append("<h2>Per request p50 / p99, ms (median of rounds)</h2>\n");
        page.append(table(result, false, c -> Units.millis(c.p50Nanos()) + " / " + Units.millis(c.p99Nanos())));

        page.append("<h2>Clients</h2>\n<table><tr><th>name</th><th>what it is</th></tr>\n");
        for (ClientKind k : s.clients()) {
            page.append("<tr><td>").append(k.cliName()).append("</td><td style=\"text-align:left\">")
                    .append(Html.escape(k.label())).append("</td></tr>\n");
        }
        page.append("</table>\n");
        page.append(sources(PublishedFigures.reuse()));
        page.append("</body>\n</html>\n");
        return page.toString();
    }

    private static String chart(ReuseResult result, String what, ToLongFunction<CellSummary> figure) {
        ReuseSettings s = result.settings();
        List<String> categories = new ArrayList<>();
        for (ReuseCase c : s.cases()) {
            categories.add(c.id() + (c.slow() && s.requestsFor(c) != s.requests() ? " (n=" + s.requestsFor(c) + ")"
                    : ""));
        }
        List<SvgBarChart.Series> series = new ArrayList<>();
        for (ClientKind k : s.clients()) {
            List<Double> values = new ArrayList<>();
            for (ReuseCase c : s.cases()) {
                CellSummary cell = result.cell(c, k);
                values.add(cell == null ? -1.0 : (double) figure.applyAsLong(cell));
            }
            series.add(new SvgBarChart.Series(k.cliName(), ClientColors.of(k), values));
        }
        return SvgBarChart.render(what + " per cell (median of " + s.rounds() + " rounds, "
                        + s.requests() + " requests per cell unless n says otherwise)",
                what.toLowerCase(Locale.ROOT),
                categories, series, s.requests()) + "\n";
    }

    private static String table(ReuseResult result, boolean withPublished, Function<CellSummary, String> cell) {
        List<ClientKind> clients = result.settings().clients();
        StringBuilder out = new StringBuilder("<table>\n<tr><th>case</th><th>n</th>");
        for (ClientKind k : clients) {
            out.append("<th title=\"").append(Html.escape(k.label())).append("\">").append(k.cliName())
                    .append("</th>");
        }
        out.append("</tr>\n");
        boolean published = withPublished && ReuseTables.showsPublished(clients);
        for (ReuseCase c : result.settings().cases()) {
            out.append("<tr><td title=\"GET ").append(Html.escape(c.pathAndQuery())).append("\">")
                    .append(Html.escape(c.label())).append("</td><td>").append(result.settings().requestsFor(c))
                    .append("</td>");
            for (ClientKind k : clients) {
                CellSummary summary = result.cell(c, k);
                boolean bad = summary != null && summary.errors() > 0;
                out.append(bad ? "<td class=\"bad\">" : "<td>")
                        .append(summary == null ? "" : Html.escape(cell.apply(summary))).append("</td>");
            }
            out.append("</tr>\n");
            if (published) {
                out.append("<tr class=\"published\"><td>Go, published (not measured)</td><td></td>");
                for (ClientKind k : clients) {
                    String value = "";
                    for (GoRelease release : GoRelease.values()) {
                        if (k.cliName().equals(release.matchingClient())) {
                            value = release.label() + ": " + PublishedFigures.cell(c.id(), release);
                        }
                    }
                    out.append("<td>").append(Html.escape(value)).append("</td>");
                }
                out.append("</tr>\n");
            }
        }
        out.append("</table>\n");
        return out.toString();
    }

    static String sources(List<PublishedFigure> figures) {
        StringBuilder out = new StringBuilder("<h2>Published figures and their sources (not measurements)</h2>\n");
        out.append("<table class=\"sources\">\n<tr><th>case</th><th>release</th><th>figure</th><th>conditions</th>"
                + "<th>seed</th><th>sentence</th></tr>\n");
        for (PublishedFigure f : figures) {
            out.append("<tr><td>").append(Html.escape(f.caseId())).append("</td><td>")
                    .append(Html.escape(f.release().label())).append("</td><td>").append(Html.escape(f.value()))
                    .append("</td><td>").append(Html.escape(f.version())).append("</td><td>")
                    .append(Html.escape(f.seed())).append("</td><td class=\"sentence\">")
                    .append(Html.escape(f.sentence())).append("</td></tr>\n");
        }
        out.append("</table>\n");
        return out.toString();
    }
}
