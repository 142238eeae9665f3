package dev.shuttle.lab.idle;

import dev.shuttle.lab.servers.ServerKind;
import java.util.List;

/**
 * One round of one server at one connection count: a fresh server JVM, its baseline (one warm-up connection held)
 * and its state once {@code connections} more are held idle. Each of {@code baseline} and {@code loaded} is the
 * field-wise median of its samples.
 *
 * @param heldAtEnd         connections the holder still had open after the last sample (warm-up one included)
 * @param baselineSamples   the raw samples behind {@code baseline}
 * @param loadedSamples     the raw samples behind {@code loaded}
 */
public record IdleRound(ServerKind server, int connections, int round, IdleSample baseline, IdleSample loaded,
                        List<IdleSample> baselineSamples, List<IdleSample> loadedSamples, int heldAtEnd,
                        int failedConnections, String firstError) {

    public static IdleRound of(ServerKind server, int connections, int round, List<IdleSample> baselineSamples,
                               List<IdleSample> loadedSamples, int heldAtEnd, int failed, String firstError) {
        return new IdleRound(server, connections, round, SampleMath.medianOfSamples(baselineSamples),
                SampleMath.medianOfSamples(loadedSamples), List.copyOf(baselineSamples), List.copyOf(loadedSamples),
                heldAtEnd, failed, firstError);
    }

    public double rssPerConnection() {
        return SampleMath.perConnection(baseline.rssBytes(), loaded.rssBytes(), connections);
    }

    public double heapPerConnection() {
        return SampleMath.perConnection(baseline.liveHeapBytes(), loaded.liveHeapBytes(), connections);
    }

    public double threadsPerConnection() {
        return SampleMath.perConnection(baseline.threads(), loaded.threads(), connections);
    }

    public double virtualThreadsPerConnection() {
        return SampleMath.perConnection(baseline.virtualThreads(), loaded.virtualThreads(), connections);
    }
}
