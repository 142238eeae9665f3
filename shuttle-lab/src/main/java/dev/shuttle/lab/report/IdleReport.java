package dev.shuttle.lab.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.shuttle.lab.idle.IdleCell;
import dev.shuttle.lab.idle.IdleResult;
import dev.shuttle.lab.idle.IdleRound;
import dev.shuttle.lab.idle.IdleSample;
import dev.shuttle.lab.idle.IdleSettings;
import dev.shuttle.lab.process.JvmFlags;
import dev.shuttle.lab.reference.GoRelease;
import dev.shuttle.lab.reference.PublishedFigure;
import dev.shuttle.lab.reference.PublishedFigures;
import dev.shuttle.lab.servers.ServerKind;
import dev.shuttle.lab.servers.ServerSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Terminal, JSON and HTML reports of {@code lab idle}. */
public final class IdleReport {
    static final String PUBLISHED_NOTE = "† published in seed 001 (Go's own server, h2c, Go 1.27.3 and Go 1.28), "
            + "not measured here; Go with parking off behaves like Go 1.27 within a few MiB";

    private IdleReport() {
    }

    public static String text(IdleResult result) {
        StringBuilder out = new StringBuilder();
        out.append("Shuttle Lab: the cost of idle connections (").append(result.settings().protocol()).append(": ")
                .append(result.settings().protocol().label()).append(")\n");
        out.append(String.join("\n", parameters(result))).append("\n\n");
        if (!result.cells().isEmpty()) {
            int largest = largestCount(result);
            out.append("Per idle connection at ").append(count(largest)).append(" connections (median of ")
                    .append(rounds(result)).append("; growth over each round's baseline)\n");
            out.append(perConnectionTable(result, largest).render());
            out.append(PUBLISHED_NOTE).append('\n').append('\n');
            out.append("Footprint of the server process with N idle connections (median of ").append(rounds(result))
                    .append(")\n");
            out.append(footprintTable(result).render());
        }
        for (Map.Entry<ServerKind, String> skipped : result.skipped().entrySet()) {
            out.append("not measured: ").append(skipped.getKey().cliName()).append(" over ")
                    .append(result.settings().protocol()).append(": ").append(skipped.getValue()).append('\n');
        }
        for (IdleCell cell : result.cells()) {
            if (cell.lostConnections() > 0) {
                out.append("! ").append(cell.server().cliName()).append(" × ").append(cell.connections())
                        .append(": ").append(cell.lostConnections()).append(" connections lost over the rounds: ")
                        .append(cell.firstError()).append('\n');
            }
        }
        return out.toString();
    }

    static List<String> parameters(IdleResult result) {
        IdleSettings s = result.settings();
        List<String> lines = new ArrayList<>();
        lines.add("each server in its own JVM: " + JvmFlags.describe(JvmFlags.SERVER) + "; client JVM: "
                + JvmFlags.describe(JvmFlags.CLIENT));
        lines.add("every server: " + ServerSettings.DEFAULTS.describe());
        lines.add("per round: a fresh server JVM; one warm-up connection and request; " + s.settle().toSeconds()
                + " s to settle; " + s.baselineSamples() + " baseline samples; then N connections from the client "
                + "JVM, one request each, left idle; " + s.settle().toSeconds() + " s to settle; " + s.samples()
                + " samples " + s.interval().toMillis() + " ms apart (median of samples, then of " + s.rounds()
                + " round" + (s.rounds() == 1 ? "" : "s") + ")");
        lines.add("a sample: VmRSS and OS threads from /proc, live heap after a full GC (jcmd GC.class_histogram), "
                + "virtual threads from a JSON thread dump (jcmd Thread.dump_to_file -format=json)");
        lines.add(result.environment().summaryLine());
        lines.add("run took " + Units.duration(result.elapsedNanos()));
        return lines;
    }

    private static String rounds(IdleResult result) {
        int r = result.settings().rounds();
        return r + " round" + (r == 1 ? "" : "s");
    }

    static int largestCount(IdleResult result) {
        return result.settings().connectionCounts().stream().mapToInt(Integer::intValue).max().orElse(0);
    }

    static TextTable perConnectionTable(IdleResult result, int count) {
        TextTable table = new TextTable(List.of("server", "version", "RSS/conn", "heap/conn", "threads/conn",
                "virtual threads"));
        for (ServerKind server : result.measured()) {
            IdleCell cell = result.cell(server, count);
            if (cell == null) {
                continue;
            }
            table.row(List.of(server.cliName(), result.versions().getOrDefault(server, ""),
                    perConnectionBytes(cell.rssPerConnection()), perConnectionBytes(cell.heapPerConnection()),
                    threads(cell.threadsPerConnection()), Long.toString(cell.virtualThreads())));
        }
        for (String[] row : publishedRows()) {
            table.row(List.of(row));
        }
        return table;
    }

    /** Go's figures, one row per release, in the per-connection table's columns. */
    static List<String[]> publishedRows() {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"Go 1.27.3 †", "published", fig("idle-rss-per-connection", GoRelease.GO_1_27),
                fig("idle-heap-per-connection", GoRelease.GO_1_27),
                fig("idle-threads-per-connection", GoRelease.GO_1_27),
                fig("idle-threads-at-10000", GoRelease.GO_1_27) + " at 10,000"});
        rows.add(new String[] {"Go 1.28, parking on †", "published", fig("idle-rss-per-connection", GoRelease.GO_1_28),
                fig("idle-heap-per-connection", GoRelease.GO_1_28),
                fig("idle-threads-per-connection", GoRelease.GO_1_28),
                fig("idle-threads-at-10000", GoRelease.GO_1_28) + " at 10,000"});
        return rows;
    }

    private static String fig(String caseId, GoRelease release) {
        return PublishedFigures.cell(caseId, release);
    }

    static TextTable footprintTable(IdleResult result) {
        TextTable table = new TextTable(List.of("server", "connections", "RSS", "live heap", "OS threads",
                "virtual threads", "RSS/conn", "heap/conn", "threads/conn", "lost"));
        for (ServerKind server : result.measured()) {
            IdleCell first = null;
            for (int count : result.settings().connectionCounts()) {
                IdleCell cell = result.cell(server, count);
                if (cell == null) {
                    continue;
                }
                if (first == null) {
                    first = cell;
                    table.row(List.of(server.cliName(), "baseline", Units.bytes(cell.baselineRssBytes()),
                            Units.bytes(cell.baselineLiveHeapBytes()), "", "", "", "", "", ""));
                }
                table.row(List.of("", count(count), Units.bytes(cell.rssBytes()), Units.bytes(cell.liveHeapBytes()),
                        Long.toString(cell.osThreads()), Long.toString(cell.virtualThreads()),
                        perConnectionBytes(cell.rssPerConnection()), perConnectionBytes(cell.heapPerConnection()),
                        threads(cell.threadsPerConnection()), Integer.toString(cell.lostConnections())));
            }
        }
        return table;
    }

    /** 812 B, 3.4 KiB, -120 B: a per-connection growth, which can be negative within noise. */
    static String perConnectionBytes(double bytes) {
        if (Double.isNaN(bytes)) {
            return "-";
        }
        if (Math.abs(bytes) < 1024) {
            return String.format(Locale.ROOT, "%.0f B", bytes);
        }
        return String.format(Locale.ROOT, "%.1f KiB", bytes / 1024);
    }

    static String threads(double perConnection) {
        return String.format(Locale.ROOT, "%.2f", perConnection);
    }

    static String count(int n) {
        return String.format(Locale.ROOT, "%,d", n).replace(',', ' ');
    }

    public static ObjectNode json(IdleResult result) {
        IdleSettings s = result.settings();
        ObjectNode root = JsonReport.MAPPER.createObjectNode();
        root.put("experiment", "lab idle");
        root.put("unit", "bytes; per-connection figures are growth over each round's baseline / connections, "
                + "median of rounds");
        ObjectNode p = root.putObject("parameters");
        p.put("protocol", s.protocol().cliName());
        ArrayNode counts = p.putArray("connections");
        s.connectionCounts().forEach(counts::add);
        p.put("rounds", s.rounds());
        p.put("settleMillis", s.settle().toMillis());
        p.put("samples", s.samples());
        p.put("baselineSamples", s.baselineSamples());
        p.put("sampleIntervalMillis", s.interval().toMillis());
        p.put("serverJvmFlags", JvmFlags.describe(JvmFlags.SERVER));
        p.put("clientJvmFlags", JvmFlags.describe(JvmFlags.CLIENT));
        p.put("serverSettings", ServerSettings.DEFAULTS.describe());
        root.set("environment", JsonReport.environment(result.environment()));
        root.put("elapsedMillis", result.elapsedNanos() / 1e6);
        ObjectNode skipped = root.putObject("notMeasured");
        result.skipped().forEach((k, why) -> skipped.put(k.cliName(), why));
        ArrayNode cells = root.putArray("cells");
        for (IdleCell c : result.cells()) {
            ObjectNode cell = cells.addObject();
            cell.put("server", c.server().cliName());
            cell.put("serverLabel", c.server().label());
            cell.put("version", result.versions().getOrDefault(c.server(), ""));
            cell.put("connections", c.connections());
            cell.put("rounds", c.rounds().size());
            cell.put("rssBytes", c.rssBytes());
            cell.put("liveHeapBytes", c.liveHeapBytes());
            cell.put("osThreads", c.osThreads());
            cell.put("virtualThreads", c.virtualThreads());
            cell.put("baselineRssBytes", c.baselineRssBytes());
            cell.put("baselineLiveHeapBytes", c.baselineLiveHeapBytes());
            cell.put("baselineThreads", c.baselineThreads());
            ObjectNode per = cell.putObject("perConnection");
            per.put("rssBytes", c.rssPerConnection());
            per.put("liveHeapBytes", c.heapPerConnection());
            per.put("threads", c.threadsPerConnection());
            cell.put("lostConnections", c.lostConnections());
            if (c.firstError() != null) {
                cell.put("firstError", c.firstError());
            }
            ArrayNode rounds = cell.putArray("roundDetails");
            for (IdleRound r : c.rounds()) {
                ObjectNode round = rounds.addObject();
                round.put("round", r.round());
                round.put("heldAtEnd", r.heldAtEnd());
                round.put("failedConnections", r.failedConnections());
                round.set("baseline", sample(r.baseline()));
                round.set("loaded", sample(r.loaded()));
                ArrayNode raw = round.putArray("loadedSamples");
                r.loadedSamples().forEach(x -> raw.add(sample(x)));
            }
        }
        root.set("published", JsonReport.published(PublishedFigures.idle()));
        return root;
    }

    private static ObjectNode sample(IdleSample s) {
        ObjectNode node = JsonReport.MAPPER.createObjectNode();
        node.put("rssBytes", s.rssBytes());
        node.put("liveHeapBytes", s.liveHeapBytes());
        node.put("osThreads", s.osThreads());
        node.put("virtualThreads", s.virtualThreads());
        return node;
    }

    public static String html(IdleResult result) {
        StringBuilder page = new StringBuilder();
        page.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n")
                .append("<title>Shuttle Lab: lab idle</title>\n<style>\n").append(Html.STYLE)
                .append("</style>\n</head>\n<body>\n");
        page.append("<h1>Shuttle Lab: the cost of idle connections, ")
                .append(Html.escape(result.settings().protocol().label())).append("</h1>\n");
        for (String line : parameters(result)) {
            page.append("<p class=\"meta\">").append(Html.escape(line)).append("</p>\n");
        }
        for (Map.Entry<ServerKind, String> skipped : result.skipped().entrySet()) {
            page.append("<p class=\"meta\">Not measured: ").append(Html.escape(skipped.getKey().cliName()))
                    .append(": ").append(Html.escape(skipped.getValue())).append("</p>\n");
        }
        if (!result.cells().isEmpty()) {
            int largest = largestCount(result);
            page.append("<h2>Per idle connection at ").append(count(largest)).append(" connections</h2>\n");
            page.append(HtmlTables.of(perConnectionTable(result, largest), "†"));
            page.append("<p class=\"note\">").append(Html.escape(PUBLISHED_NOTE)).append(". Sources below.</p>\n");
            List<Double> xs = new ArrayList<>();
            xs.add(0.0);
            result.settings().connectionCounts().forEach(c -> xs.add((double) c));
            page.append("<h2>RSS and live heap against idle connections</h2>\n");
            page.append(chart(result, xs, true)).append(chart(result, xs, false));
            page.append("<p class=\"note\">The server's 1 GiB heap is touched at startup, so RSS growth is memory "
                    + "outside the Java heap (thread stacks, direct buffers, metaspace, malloc); the heap's share is the "
                    + "live heap after a full GC.</p>\n");
            page.append("<h2>Footprint with N idle connections (median of rounds)</h2>\n");
            page.append(HtmlTables.of(footprintTable(result), "†"));
        }
        page.append(HtmlReport.sources(PublishedFigures.idle()));
        page.append("</body>\n</html>\n");
        return page.toString();
    }

    /**
     * RSS as growth over the baseline (the pre-touched heap makes absolute RSS a flat line near 1 GiB for every
     * server), live heap as measured.
     */
    private static String chart(IdleResult result, List<Double> xs, boolean rss) {
        List<SvgLineChart.Series> series = new ArrayList<>();
        for (ServerKind server : result.measured()) {
            List<Double> ys = new ArrayList<>();
            IdleCell first = result.cell(server, result.settings().connectionCounts().getFirst());
            long base = first == null ? 0 : rss ? first.baselineRssBytes() : 0;
            ys.add(first == null ? Double.NaN : rss ? 0.0 : mib(first.baselineLiveHeapBytes()));
            for (int count : result.settings().connectionCounts()) {
                IdleCell cell = result.cell(server, count);
                ys.add(cell == null ? Double.NaN : mib(rss ? cell.rssBytes() - base : cell.liveHeapBytes()));
            }
            series.add(new SvgLineChart.Series(server.cliName(), ServerColors.of(server), ys));
        }
        return SvgLineChart.render(rss ? "RSS growth over the baseline (MiB)"
                        : "Live heap after a full GC (MiB)", "idle connections", "MiB", xs, series) + "\n";
    }

    private static double mib(long bytes) {
        return Math.round(bytes / 1048576.0 * 10) / 10.0;
    }
}
