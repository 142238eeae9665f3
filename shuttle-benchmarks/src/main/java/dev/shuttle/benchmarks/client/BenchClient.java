package dev.shuttle.benchmarks.client;

import java.net.URI;

/**
 * One HTTP client under measurement: GETs a URI, reads the whole body, closes the response. Public because the
 * baseline Shuttle client ({@link BaselineShuttle}) implements it from another class loader.
 */
public interface BenchClient extends AutoCloseable {
    /** @return the number of body bytes read */
    int get(URI uri) throws Exception;

    static BenchClient create(String name, int maxConnections) {
        return switch (name) {
            case "shuttle" -> new ShuttleBenchClient();
            case "shuttle-base" -> BaselineShuttle.create();
            case "jdk" -> new JdkBenchClient();
            case "okhttp" -> new OkHttpBenchClient(maxConnections);
            case "apache" -> new ApacheBenchClient(maxConnections);
            default -> throw new IllegalArgumentException(
                    "unknown client " + name + " (shuttle, shuttle-base, jdk, okhttp, apache)");
        };
    }
}
