package dev.shuttle.lab.busy;

import dev.shuttle.lab.load.LoadResult;
import dev.shuttle.lab.servers.ServerKind;

/**
 * One server under one scenario in one round.
 *
 * @param serverCpuNanos user + system CPU time of the server process inside the window
 * @param windowNanos    the window as the lab timed it
 * @param rssBytes       median VmRSS of the samples taken once a second inside the window
 */
public record BusyMeasurement(ServerKind server, BusyScenario scenario, int round, LoadResult load,
                              long serverCpuNanos, long windowNanos, long rssBytes) {
    /** Server CPU in cores (1.0 = one core busy the whole window). */
    public double cpuCores() {
        return windowNanos <= 0 ? 0 : (double) serverCpuNanos / windowNanos;
    }

    /** Server CPU time per request, microseconds. */
    public double cpuMicrosPerRequest() {
        return load.requests() == 0 ? 0 : serverCpuNanos / 1000.0 / load.requests();
    }
}
