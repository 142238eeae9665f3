package dev.shuttle.lab.busy;

import dev.shuttle.lab.idle.IdleSample;
import dev.shuttle.lab.load.LoadResult;
import dev.shuttle.lab.servers.ServerKind;

/**
 * One server under one scenario in one round.
 *
 * @param serverCpuNanos user + system CPU time of the server process inside the window
 * @param windowNanos    the window as the lab timed it
 * @param rssBytes       median VmRSS of the samples taken once a second inside the window
 * @param baseline       the server before any load: after start-up, live heap after a full GC, then VmRSS
 * @param liveHeapBytes  live heap after a full GC once the window closed (the server's heap is pre-touched, so its
 *                       RSS cannot show what the heap holds)
 */
public record BusyMeasurement(ServerKind server, BusyScenario scenario, int round, LoadResult load,
                              long serverCpuNanos, long windowNanos, long rssBytes, IdleSample baseline,
                              long liveHeapBytes) {
    /** VmRSS inside the window over the baseline's: memory outside the pre-touched heap that the load added. */
    public long rssGrowthBytes() {
        return rssBytes - baseline.rssBytes();
    }

    /** Server CPU in cores (1.0 = one core busy the whole window). */
    public double cpuCores() {
        return windowNanos <= 0 ? 0 : (double) serverCpuNanos / windowNanos;
    }

    /** Server CPU time per request, microseconds. */
    public double cpuMicrosPerRequest() {
        return load.requests() == 0 ? 0 : serverCpuNanos / 1000.0 / load.requests();
    }
}
