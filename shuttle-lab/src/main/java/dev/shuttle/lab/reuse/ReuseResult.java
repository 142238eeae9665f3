package dev.shuttle.lab.reuse;

import dev.shuttle.lab.report.RunEnvironment;
import java.util.List;

/**
 * Everything one {@code lab reuse} run measured.
 *
 * @param measurements every round of every cell, in the order run
 * @param summaries    one per cell (case × client), in table order: cases outer, clients inner
 * @param elapsedNanos the whole run, warm-up and fixture start included
 */
public record ReuseResult(ReuseSettings settings, RunEnvironment environment, List<CellMeasurement> measurements,
                          List<CellSummary> summaries, long elapsedNanos) {

    /** The summary of one cell, or null when it was not run. */
    public CellSummary cell(ReuseCase reuseCase, dev.shuttle.lab.clients.ClientKind client) {
        for (CellSummary s : summaries) {
            if (s.reuseCase() == reuseCase && s.client() == client) {
                return s;
            }
        }
        return null;
    }
}
