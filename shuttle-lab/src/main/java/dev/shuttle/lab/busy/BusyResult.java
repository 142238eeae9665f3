package dev.shuttle.lab.busy;

import dev.shuttle.lab.report.RunEnvironment;
import dev.shuttle.lab.servers.ServerKind;
import java.util.List;
import java.util.Map;

/** Everything one {@code lab busy} run measured; {@code notes} are one-line remarks for the report. */
public record BusyResult(BusySettings settings, RunEnvironment environment, List<ServerKind> measured,
                         Map<ServerKind, String> skipped, Map<ServerKind, String> versions, List<BusyCell> cells,
                         List<String> notes, long elapsedNanos) {
    public BusyCell cell(ServerKind server, BusyScenario scenario) {
        for (BusyCell c : cells) {
            if (c.server() == server && c.scenario() == scenario) {
                return c;
            }
        }
        return null;
    }
}
