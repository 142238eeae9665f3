package dev.shuttle.lab.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.shuttle.lab.busy.BusyCell;
import dev.shuttle.lab.busy.BusyMeasurement;
import dev.shuttle.lab.busy.BusyResult;
import dev.shuttle.lab.busy.BusyScenario;
import dev.shuttle.lab.busy.BusySettings;
import dev.shuttle.lab.process.JvmFlags;
import dev.shuttle.lab.reference.PublishedFigure;
import dev.shuttle.lab.reference.PublishedFigures;
import dev.shuttle.lab.servers.ServerKind;
import dev.shuttle.lab.servers.ServerSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Terminal, JSON and HTML reports of {@code lab busy}. */
public final class BusyReport {
    private BusyReport() {
    }

    public static String text(BusyResult result) {
        StringBuilder out = new StringBuilder();
        out.append("Shuttle Lab: busy connections (").append(result.settings().protocol()).append(": ")
                .append(result.settings().protocol().label()).append(")\n");
        out.append(String.join("\n", parameters(result))).append("\n\n");
        for (BusyScenario scenario : result.settings().scenarios()) {
            out.append(title(result.settings(), scenario)).append('\n');
            out.append(table(result, scenario).render());
            String parking = parking(result, scenario);
            if (parking != null) {
                out.append("  ").append(parking).append('\n');
            }
            for (PublishedFigure f : published(scenario)) {
                out.append("  † published, not measured: ").append(f.value()).append(" (").append(f.version())
                        .append(", ").append(f.seed()).append(")\n");
            }
            out.append('\n');
        }
        for (Map.Entry<ServerKind, String> skipped : result.skipped().entrySet()) {
            out.append("not measured: ").append(skipped.getKey().cliName()).append(" over ")
                    .append(result.settings().protocol()).append(": ").append(skipped.getValue()).append('\n');
        }
        for (String note : result.notes()) {
            out.append("note: ").append(note).append('\n');
        }
        for (BusyCell cell : result.cells()) {
            if (cell.errors() > 0) {
                out.append("! ").append(cell.server().cliName()).append(", ").append(cell.scenario().cliName())
                        .append(": ").append(cell.errors()).append(" errors; first: ").append(cell.firstError())
                        .append('\n');
            }
        }
        return out.toString();
    }

    static List<String> parameters(BusyResult result) {
        BusySettings s = result.settings();
        List<String> lines = new ArrayList<>();
        lines.add("each server in its own JVM: " + JvmFlags.describe(JvmFlags.SERVER) + "; client JVM: "
                + JvmFlags.describe(JvmFlags.CLIENT));
        lines.add("every server: " + ServerSettings.DEFAULTS.describe());
        lines.add("a fresh server JVM per scenario and round; server CPU (user + system) from /proc/PID/stat over "
                + "the window; live heap after a full GC (jcmd GC.class_histogram) once the window closed; RSS growth the "
                + "median of once-a-second VmRSS samples inside the window over the baseline taken after start-up and "
                + "a full GC, before any load (the heap is pre-touched, so RSS shows memory outside it); latency from request written to "
                + "response complete (HdrHistogram); " + s.rounds() + " round" + (s.rounds() == 1 ? "" : "s")
                + ", medians");
        lines.add(result.environment().summaryLine());
        lines.add("run took " + Units.duration(result.elapsedNanos()));
        return lines;
    }

    static String title(BusySettings s, BusyScenario scenario) {
        int connections = s.connectionsOf(scenario);
        String shape = scenario == BusyScenario.HOT
                ? (!s.protocol().isHttp2() ? connections + " connections × 1 request in flight (HTTP/1.1: "
                        + "one connection per stream of 32 × 4)" : connections + " connections × " + scenario.shape()
                        + " concurrent streams") + ", closed loop"
                : connections + " connections, one request every " + scenario.shape() / 1000 + " s each at a "
                        + "random offset (about " + connections * 1000 / scenario.shape() + " requests/s)";
        return scenario.cliName() + ": " + shape + ", " + s.durationOf(scenario).toSeconds() + " s after "
                + s.warmupOf(scenario).toSeconds() + " s of warm-up (median of " + s.rounds() + " round"
                + (s.rounds() == 1 ? "" : "s") + ")";
    }

    static TextTable table(BusyResult result, BusyScenario scenario) {
        TextTable table = new TextTable(List.of("server", "version", "requests/s", "p50 ms", "p99 ms", "p99.9 ms",
                "CPU % of a core", "CPU µs/req", "live heap", "RSS growth", "errors", "load"));
        for (ServerKind server : result.measured()) {
            BusyCell c = result.cell(server, scenario);
            if (c == null) {
                continue;
            }
            table.row(List.of(server.cliName(), result.versions().getOrDefault(server, ""),
                    String.format(Locale.ROOT, "%,.0f", c.requestsPerSecond()).replace(',', ' '),
                    micros(c.p50Micros()), micros(c.p99Micros()), micros(c.p999Micros()),
                    String.format(Locale.ROOT, "%.1f%%", c.cpuCores() * 100),
                    String.format(Locale.ROOT, "%.0f", c.cpuMicrosPerRequest()),
                    Units.bytes((long) c.liveHeapBytes()), signedBytes(c.rssGrowthBytes()),
                    Long.toString(c.errors()), c.generator()));
        }
        return table;
    }

    private static String signedBytes(double bytes) {
        return bytes < 0 ? "-" + Units.bytes((long) -bytes) : "+" + Units.bytes((long) bytes);
    }

    /**
     * Parking on against off, as seed 001 puts it ("RSS -27 % with parking"): shuttle's figures relative to
     * shuttle-noparking's, or null when the run lacks either.
     */
    static String parking(BusyResult result, BusyScenario scenario) {
        BusyCell on = result.cell(ServerKind.SHUTTLE, scenario);
        BusyCell off = result.cell(ServerKind.SHUTTLE_NOPARKING, scenario);
        if (on == null || off == null) {
            return null;
        }
        return "parking on vs off: live heap " + percent(BusyCell.relative(on.liveHeapBytes(), off.liveHeapBytes()))
                + ", RSS growth " + percent(BusyCell.relative(on.rssGrowthBytes(), off.rssGrowthBytes()))
                + ", CPU µs/req " + percent(BusyCell.relative(on.cpuMicrosPerRequest(), off.cpuMicrosPerRequest()))
                + ", p50 " + percent(BusyCell.relative(on.p50Micros(), off.p50Micros()))
                + ", p99 " + percent(BusyCell.relative(on.p99Micros(), off.p99Micros()));
    }

    private static String percent(double relative) {
        return Double.isNaN(relative) ? "n/a" : String.format(Locale.ROOT, "%+.0f %%", relative * 100);
    }

    private static List<PublishedFigure> published(BusyScenario scenario) {
        String prefix = scenario == BusyScenario.HOT ? "hot-" : "mostly-idle-";
        return PublishedFigures.busy().stream().filter(f -> f.caseId().startsWith(prefix)).toList();
    }

    private static String micros(double micros) {
        return Units.millis((long) (micros * 1000));
    }

    public static ObjectNode json(BusyResult result) {
        BusySettings s = result.settings();
        ObjectNode root = JsonReport.MAPPER.createObjectNode();
        root.put("experiment", "lab busy");
        root.put("unit", "latency microseconds; CPU in cores of the server process over the window; bytes");
        ObjectNode p = root.putObject("parameters");
        p.put("protocol", s.protocol().cliName());
        p.put("rounds", s.rounds());
        p.put("generator", s.generator());
        p.put("serverJvmFlags", JvmFlags.describe(JvmFlags.SERVER));
        p.put("clientJvmFlags", JvmFlags.describe(JvmFlags.CLIENT));
        p.put("serverSettings", ServerSettings.DEFAULTS.describe());
        ArrayNode scenarios = p.putArray("scenarios");
        for (BusyScenario scenario : s.scenarios()) {
            ObjectNode node = scenarios.addObject();
            node.put("scenario", scenario.cliName());
            node.put("description", title(s, scenario));
            node.put("connections", s.connectionsOf(scenario));
            node.put("warmupMillis", s.warmupOf(scenario).toMillis());
            node.put("durationMillis", s.durationOf(scenario).toMillis());
        }
        root.set("environment", JsonReport.environment(result.environment()));
        root.put("elapsedMillis", result.elapsedNanos() / 1e6);
        ObjectNode skipped = root.putObject("notMeasured");
        result.skipped().forEach((k, why) -> skipped.put(k.cliName(), why));
        ArrayNode notes = root.putArray("notes");
        result.notes().forEach(notes::add);
        ArrayNode cells = root.putArray("cells");
        for (BusyCell c : result.cells()) {
            ObjectNode cell = cells.addObject();
            cell.put("server", c.server().cliName());
            cell.put("version", result.versions().getOrDefault(c.server(), ""));
            cell.put("scenario", c.scenario().cliName());
            cell.put("connections", c.connections());
            cell.put("generator", c.generator());
            cell.put("requestsPerSecond", c.requestsPerSecond());
            cell.put("p50Micros", c.p50Micros());
            cell.put("p99Micros", c.p99Micros());
            cell.put("p999Micros", c.p999Micros());
            cell.put("serverCpuCores", c.cpuCores());
            cell.put("serverCpuMicrosPerRequest", c.cpuMicrosPerRequest());
            cell.put("rssBytes", c.rssBytes());
            cell.put("rssGrowthBytes", c.rssGrowthBytes());
            cell.put("liveHeapBytes", c.liveHeapBytes());
            cell.put("baselineLiveHeapBytes", c.baselineLiveHeapBytes());
            cell.put("errors", c.errors());
            if (c.firstError() != null) {
                cell.put("firstError", c.firstError());
            }
            ArrayNode rounds = cell.putArray("roundDetails");
            for (BusyMeasurement m : c.rounds()) {
                ObjectNode round = rounds.addObject();
                round.put("round", m.round());
                round.set("load", JsonReport.MAPPER.valueToTree(m.load()));
                round.put("serverCpuNanos", m.serverCpuNanos());
                round.put("windowNanos", m.windowNanos());
                round.put("rssBytes", m.rssBytes());
                round.put("baselineRssBytes", m.baseline().rssBytes());
                round.put("baselineLiveHeapBytes", m.baseline().liveHeapBytes());
                round.put("liveHeapBytes", m.liveHeapBytes());
            }
        }
        ObjectNode parking = root.putObject("parkingOnVsOff");
        for (BusyScenario scenario : s.scenarios()) {
            BusyCell on = result.cell(ServerKind.SHUTTLE, scenario);
            BusyCell off = result.cell(ServerKind.SHUTTLE_NOPARKING, scenario);
            if (on != null && off != null) {
                ObjectNode node = parking.putObject(scenario.cliName());
                node.put("liveHeap", BusyCell.relative(on.liveHeapBytes(), off.liveHeapBytes()));
                node.put("rssGrowth", BusyCell.relative(on.rssGrowthBytes(), off.rssGrowthBytes()));
                node.put("cpuMicrosPerRequest", BusyCell.relative(on.cpuMicrosPerRequest(),
                        off.cpuMicrosPerRequest()));
                node.put("p50", BusyCell.relative(on.p50Micros(), off.p50Micros()));
                node.put("p99", BusyCell.relative(on.p99Micros(), off.p99Micros()));
            }
        }
        root.set("published", JsonReport.published(PublishedFigures.busy()));
        return root;
    }

    public static String html(BusyResult result) {
        StringBuilder page = new StringBuilder();
        page.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n")
                .append("<title>Shuttle Lab: lab busy</title>\n<style>\n").append(Html.STYLE)
                .append("</style>\n</head>\n<body>\n");
        page.append("<h1>Shuttle Lab: busy connections, ").append(Html.escape(result.settings().protocol().label()))
                .append("</h1>\n");
        for (String line : parameters(result)) {
            page.append("<p class=\"meta\">").append(Html.escape(line)).append("</p>\n");
        }
        for (Map.Entry<ServerKind, String> skipped : result.skipped().entrySet()) {
            page.append("<p class=\"meta\">Not measured: ").append(Html.escape(skipped.getKey().cliName()))
                    .append(": ").append(Html.escape(skipped.getValue())).append("</p>\n");
        }
        for (String note : result.notes()) {
            page.append("<p class=\"meta\">").append(Html.escape(note)).append("</p>\n");
        }
        for (BusyScenario scenario : result.settings().scenarios()) {
            page.append("<h2>").append(Html.escape(title(result.settings(), scenario))).append("</h2>\n");
            page.append(HtmlTables.of(table(result, scenario), "†"));
            String parking = parking(result, scenario);
            if (parking != null) {
                page.append("<p class=\"note\">").append(Html.escape(parking)).append("</p>\n");
            }
            List<String> names = new ArrayList<>();
            List<SvgBarChart.Series> series = new ArrayList<>();
            List<Double> cpu = new ArrayList<>();
            double max = 0;
            for (ServerKind server : result.measured()) {
                BusyCell c = result.cell(server, scenario);
                if (c != null) {
                    names.add(server.cliName());
                    cpu.add(Math.round(c.cpuCores() * 1000) / 10.0);
                    max = Math.max(max, c.cpuCores() * 100);
                }
            }
            series.add(new SvgBarChart.Series("server CPU, % of one core", "#2166ac", cpu));
            page.append(SvgBarChart.render("Server CPU, " + scenario.cliName(), "% of one core", names, series,
                    SvgLineChart.niceMax(max))).append('\n');
            page.append("<p class=\"note\">");
            for (PublishedFigure f : published(scenario)) {
                page.append("Published, not measured: ").append(Html.escape(f.value())).append(" (")
                        .append(Html.escape(f.version())).append("). ");
            }
            page.append("</p>\n");
        }
        page.append(HtmlReport.sources(PublishedFigures.busy()));
        page.append("</body>\n</html>\n");
        return page.toString();
    }
}
