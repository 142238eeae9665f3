package dev.shuttle.lab.report;

import dev.shuttle.lab.clients.ClientKind;
import dev.shuttle.lab.reuse.CellMeasurement;
import dev.shuttle.lab.reuse.CellSummary;
import dev.shuttle.lab.reuse.ReuseCase;
import dev.shuttle.lab.reuse.ReuseResult;
import dev.shuttle.lab.reuse.ReuseSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** A made-up but complete run, for report tests: every figure derives from the cell's position. */
final class SampleResults {
    private SampleResults() {
    }

    static ReuseResult reuse(List<ClientKind> clients, List<ReuseCase> cases, int rounds) {
        return reuse(clients, cases, rounds, false);
    }

    /** Over TLS every connection is one handshake, and all but the first of a cell resumed. */
    static ReuseResult reuse(List<ClientKind> clients, List<ReuseCase> cases, int rounds, boolean tls) {
        ReuseSettings settings = ReuseSettings.builder().clients(clients).cases(cases).requests(10)
                .slowRequests(5).rounds(rounds).dialDelay(Duration.ofMillis(20)).tls(tls).build();
        List<CellMeasurement> measurements = new ArrayList<>();
        List<CellSummary> summaries = new ArrayList<>();
        for (ReuseCase c : cases) {
            for (ClientKind k : clients) {
                List<CellMeasurement> cell = new ArrayList<>();
                for (int r = 1; r <= rounds; r++) {
                    long connections = (c.ordinal() + k.ordinal() + r) % 11;
                    cell.add(new CellMeasurement(k, c, r, settings.requestsFor(c), connections,
                            1024L * (c.ordinal() + 1) * (k.ordinal() + 1), tls ? connections : 0,
                            tls ? Math.max(0, connections - 1) : 0, -1, 5_000_000L * r, 40_000L, 900_000L,
                            k == ClientKind.JETTY && c == ReuseCase.CL_1K ? 1 : 0,
                            k == ClientKind.JETTY && c == ReuseCase.CL_1K ? "java.io.IOException: <boom> & co" : null,
                            k.isShuttle() ? Map.of("reusedRequests", 9L) : Map.of()));
                }
                measurements.addAll(cell);
                summaries.add(CellSummary.of(cell));
            }
        }
        return new ReuseResult(settings, RunEnvironment.capture(), measurements, summaries, 12_345_000_000L);
    }
}
