package dev.shuttle.lab.pool;

import dev.shuttle.lab.report.RunEnvironment;
import java.util.List;

/** What {@code lab pool} measured. */
public record PoolResult(PoolSettings settings, RunEnvironment environment, List<Row> rows, long elapsedNanos) {

    /**
     * One subject's figures.
     *
     * @param newConnectionsPerBurst connections the fixture accepted during each burst
     * @param burstErrors            failed calls over all bursts
     * @param perCallOpen            connections still open at the fixture after the per-call-client calls
     * @param perCallNewConnections  connections the per-call-client calls opened
     * @param perCallErrors          failed per-call-client calls
     * @param firstError             first failure, or null
     */
    public record Row(PoolSubject subject, List<Long> newConnectionsPerBurst, int burstErrors, long perCallOpen,
                      long perCallNewConnections, int perCallErrors, String firstError) {
    }
}
