package dev.shuttle.lab.load;

/**
 * What a load run measured inside its window (warm-up excluded), as one JSON line on the load JVM's stdout.
 *
 * @param connections  connections that took part
 * @param requests     responses completed inside the window
 * @param errors       failed requests and connections inside the window
 * @param windowMillis length of the window
 * @param p50Micros    latency percentiles, request written to response complete, microseconds
 * @param firstError   the first failure, or null
 * @param generator    who generated the load: "lab", "h2load", "wrk", or Shuttle's client: "shuttle-h2" (h2c),
 *                     "shuttle-http1"
 */
public record LoadResult(int connections, long requests, long errors, double windowMillis, long p50Micros,
                         long p99Micros, long p999Micros, long maxMicros, String firstError, String generator) {
    public double requestsPerSecond() {
        return windowMillis <= 0 ? 0 : requests * 1000.0 / windowMillis;
    }
}
