package dev.shuttle.lab.report;

import dev.shuttle.lab.clients.ClientKind;
import dev.shuttle.lab.reference.GoRelease;
import dev.shuttle.lab.reference.PublishedFigures;
import dev.shuttle.lab.reuse.CellSummary;
import dev.shuttle.lab.reuse.ReuseCase;
import dev.shuttle.lab.reuse.ReuseResult;
import dev.shuttle.lab.reuse.ReuseSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/** The terminal report of {@code lab reuse}: one table per figure, cases as rows and clients as columns. */
public final class ReuseTables {
    static final String PUBLISHED_LABEL = "  Go, published †";
    static final String HANDSHAKES_TITLE = "TLS handshakes per cell, full and resumed";
    static final String RESUMED_TITLE = "Of those, resumed handshakes (median; a resumption sends no certificate)";

    private ReuseTables() {
    }

    public static String render(ReuseResult result) {
        ReuseSettings s = result.settings();
        StringBuilder out = new StringBuilder();
        out.append("Shuttle Lab: connection reuse when the caller closes the body unread (")
                .append(protocols(s)).append(")").append(against(s)).append("\n");
        out.append(parameters(result)).append("\n\n");

        out.append("New connections per cell (median of ").append(s.rounds()).append(" round")
                .append(s.rounds() == 1 ? "" : "s").append("; min-max when the rounds differ)\n");
        out.append(table(result, true, ReuseTables::connections)).append('\n');
        if (s.protocol().isHttp2() && !s.server().isPeer()) {
            out.append(goAwaysTitle(s)).append('\n');
            out.append(table(result, false, ReuseTables::goAways)).append('\n');
        }
        if (s.tls() && !s.server().isPeer()) {
            out.append(HANDSHAKES_TITLE).append(" (median of ").append(s.rounds()).append(" round")
                    .append(s.rounds() == 1 ? "" : "s").append("; min-max when the rounds differ)\n");
            out.append(table(result, false, ReuseTables::handshakes)).append('\n');
            out.append(RESUMED_TITLE).append('\n');
            out.append(table(result, false, c -> Long.toString(c.tlsResumed()))).append('\n');
        }
        out.append(bytesTitle(s)).append('\n');
        out.append(table(result, false, c -> Units.bytes(c.serverBytes()))).append('\n');
        out.append("Time for the cell's requests, ms (median)\n");
        out.append(table(result, false, c -> Units.millis(c.wallNanos()))).append('\n');
        out.append("Per request p50 / p99, ms (median of rounds)\n");
        out.append(table(result, false, c -> Units.millis(c.p50Nanos()) + " / " + Units.millis(c.p99Nanos())))
                .append('\n');
        out.append(footnotes(result));
        return out.toString();
    }

    static String parameters(ReuseResult result) {
        ReuseSettings s = result.settings();
        return "requests per cell " + s.requests() + " (slow cases " + Math.min(s.slowRequests(), s.requests())
                + ", see column n), rounds " + s.rounds() + ", dial delay " + s.dialDelay().toMillis() + " ms"
                + (s.server().isPeer() ? " (through the relay, which counts the server's connections)"
                : s.dialDelay().isZero() ? " (direct to the fixture)" : " (through the relay)")
                + ", warm-up " + s.warmup() + " requests per client\n"
                + (s.tls() ? "HTTPS: the " + (s.server().isPeer() ? "server" : "fixture")
                + " presents a certificate generated for this run; every client trusts "
                + "its authority alone, through a TLS context (session cache) of its own, "
                + (s.protocol().isHttp2() ? "h2 through ALPN" : "HTTP/1.1 only"
                + (speaksHttp2(s.clients()) ? " (shuttle-h2: h2 through ALPN)" : "")) + "\n" : "")
                + result.environment().summaryLine() + "\n"
                + "run took " + Units.duration(result.elapsedNanos());
    }

    /** What the title says the run spoke. */
    static String protocols(ReuseSettings s) {
        if (s.protocol().isHttp2()) {
            return s.protocol().label();
        }
        String http1 = s.tls() ? "HTTP/1.1 over TLS" : "HTTP/1.1";
        if (!speaksHttp2(s.clients())) {
            return http1;
        }
        String h2 = s.tls() ? "HTTP/2 over TLS" : "h2c";
        return s.clients().stream().allMatch(ClientKind::isHttp2) ? h2 : http1 + "; shuttle-h2: " + h2;
    }

    static boolean speaksHttp2(List<ClientKind> clients) {
        return clients.stream().anyMatch(ClientKind::isHttp2);
    }

    static String connections(CellSummary c) {
        String median = Long.toString(c.newConnections());
        String cell = c.minNewConnections() == c.maxNewConnections() ? median
                : median + " (" + c.minNewConnections() + "-" + c.maxNewConnections() + ")";
        return c.errors() > 0 ? cell + " !" + c.errors() : cell;
    }

    /** Against a peer server, which one; nothing against the fixture. */
    static String against(ReuseSettings s) {
        return s.server().isPeer() ? " against " + s.server().label() : "";
    }

    static String bytesTitle(ReuseSettings s) {
        return s.server().isPeer() ? "Bytes the relay passed from the server to the client per cell (median)"
                : "Bytes the server wrote per cell (median)";
    }

    static String goAwaysTitle(ReuseSettings s) {
        return "GOAWAYs the server sent before the client closed (sum of " + s.rounds() + " round"
                + (s.rounds() == 1 ? "" : "s") + "; each one cost the client a connection it still wanted)";
    }

    static String goAways(CellSummary c) {
        return c.goAways() < 0 ? "-" : Long.toString(c.goAways());
    }

    static String handshakes(CellSummary c) {
        String median = Long.toString(c.tlsHandshakes());
        return c.minTlsHandshakes() == c.maxTlsHandshakes() ? median
                : median + " (" + c.minTlsHandshakes() + "-" + c.maxTlsHandshakes() + ")";
    }

    private static String table(ReuseResult result, boolean withPublished, Function<CellSummary, String> cell) {
        List<ClientKind> clients = result.settings().clients();
        List<String> header = new ArrayList<>();
        header.add("case");
        header.add("n");
        clients.forEach(k -> header.add(k.cliName()));
        TextTable table = new TextTable(header);
        boolean published = withPublished && showsPublished(clients);
        for (ReuseCase reuseCase : result.settings().cases()) {
            List<String> row = new ArrayList<>();
            row.add(reuseCase.label());
            row.add(Integer.toString(result.settings().requestsFor(reuseCase)));
            for (ClientKind client : clients) {
                CellSummary summary = result.cell(reuseCase, client);
                row.add(summary == null ? "" : cell.apply(summary));
            }
            table.row(row);
            if (published) {
                table.row(publishedRow(reuseCase, clients));
            }
        }
        return table.render();
    }

    /** Published rows sit under the Shuttle policy that behaves like each Go release: one of them must be a column. */
    static boolean showsPublished(List<ClientKind> clients) {
        return clients.stream().anyMatch(k -> k.cliName().equals(GoRelease.GO_1_27.matchingClient())
                || k.cliName().equals(GoRelease.GO_1_26.matchingClient()));
    }

    private static List<String> publishedRow(ReuseCase reuseCase, List<ClientKind> clients) {
        List<String> row = new ArrayList<>();
        row.add(PUBLISHED_LABEL);
        row.add("");
        for (ClientKind client : clients) {
            String value = "";
            for (GoRelease release : GoRelease.values()) {
                if (client.cliName().equals(release.matchingClient())) {
                    value = PublishedFigures.cell(reuseCase.id(), release);
                }
            }
            row.add(value);
        }
        return row;
    }

    private static String footnotes(ReuseResult result) {
        StringBuilder out = new StringBuilder();
        if (showsPublished(result.settings().clients())) {
            out.append("† Published figures from the seeds, not measurements of this run: Go 1.27 under "
                    + "shuttle-bounded, Go 1.26 under shuttle-none (the policies that behave like them);\n"
                    + "  per 100 sequential requests unless \"of N\"; '-' where the seeds give none. Sources "
                    + "(seed and sentence) are in the --json and --html reports.\n");
        }
        out.append("Slow cases (") .append(slowCases(result)).append(") run ")
                .append(Math.min(result.settings().slowRequests(), result.settings().requests()))
                .append(" requests per cell, as seed 003 did, so clients that drain on the caller's thread "
                        + "do not stretch the run.\n");
        out.append("Bytes include response heads: what each connection's socket accepted, i.e. the traffic. On "
                + "loopback the kernel's socket buffers take a few hundred KiB\n  even from a client that reads "
                + "nothing, so bytes separate the clients only for larger or slower bodies.\n");
        if (result.settings().server().isPeer()) {
            out.append("Against " + result.settings().server().label() + " every client speaks HTTP/2 through the "
                    + "lab's relay, which counts the connections\n  and the bytes it passes on (TLS records "
                    + "included); the server reports neither TLS handshakes nor GOAWAYs, shown as '-'.\n");
        } else if (result.settings().protocol().isHttp2()) {
            out.append("Every client speaks HTTP/2 (" + (result.settings().tls() ? "ALPN h2" : "h2c with prior "
                    + "knowledge") + "; a response over HTTP/1.1 would count as a failed call): a body closed unread "
                    + "resets its\n  stream (RST_STREAM) and costs no connection unless the server ends it. GOAWAYs "
                    + "are the fixture's own account of those\n  it sent (its server's onGoAway).\n");
        } else if (speaksHttp2(result.settings().clients())) {
            out.append("shuttle-h2 speaks HTTP/2 (" + (result.settings().tls() ? "ALPN h2" : "h2c with prior "
                    + "knowledge") + "): one multiplexed connection per client; a body closed unread resets its\n"
                    + "  stream (RST_STREAM) instead of draining it, and HTTP/2 carries no Connection: close (a "
                    + "connection-specific field the server drops),\n  so no case costs it a connection.\n");
        }
        if (result.settings().tls()) {
            out.append("TLS handshakes are counted at the fixture when they complete (the server's onTlsHandshake); "
                    + "a connection closed before its handshake ended\n  counts as a new connection only.\n");
        }
        out.append(featureNotes(result));
        long errors = result.summaries().stream().mapToLong(CellSummary::errors).sum();
        if (errors > 0) {
            out.append("!N: N calls failed in that cell (see --json for the first error).\n");
        }
        return out.toString();
    }

    /** What the feature cases' rows mean, for those selected. */
    static String featureNotes(ReuseResult result) {
        StringBuilder out = new StringBuilder();
        List<ReuseCase> cases = result.settings().cases();
        if (cases.stream().anyMatch(c -> c.feature() != null)) {
            out.append("Feature cases (each client with what it does by default, the JDK told to follow "
                    + "redirects): an empty cell is a client without the feature\n  (jdk decodes no gzip; "
                    + "shuttle-h2 speaks h2c by prior knowledge, which no proxy carries).\n");
        }
        if (cases.contains(ReuseCase.REDIRECT_CHAIN)) {
            out.append("redirect-5: connections per 100 calls of 6 requests each; jdk allows 5 attempts in all "
                    + "(jdk.httpclient.redirects.retrylimit), so it returns the fifth 302 (!N).\n");
        }
        if (cases.contains(ReuseCase.PROXIED)) {
            out.append("proxied-2k: through squid, counted at a relay in front of it (the fixture sees squid's "
                    + "connections); empty when squid is not installed.\n");
        }
        if (cases.contains(ReuseCase.CANCEL_MID_BODY)) {
            out.append("cancel-mid-body: each client cancels its way after 1 KiB, the rest 20 ms away: shuttle a "
                    + "cancelled sendAsync future, okhttp Call.cancel(),\n  apache HttpGet.cancel(), jetty "
                    + "Request.abort(), jdk closing the stream (its only way once the body streams).\n");
        }
        return out.toString();
    }

    private static String slowCases(ReuseResult result) {
        List<String> ids = new ArrayList<>();
        for (ReuseCase c : result.settings().cases()) {
            if (c.slow()) {
                ids.add(c.id());
            }
        }
        return ids.isEmpty() ? "none selected" : String.join(", ", ids);
    }
}
