package dev.shuttle.benchmarks.client;

import java.net.URI;

/**
 * One HTTP client under measurement: GETs a URI, reads the whole body, closes the response. Public because the
 * baseline Shuttle client ({@link BaselineShuttle}) implements it from another class loader.
 */
public interface BenchClient extends AutoCloseable {
    /** @return the number of body bytes read */
    int get(URI uri) throws Exception;

    /**
     * One GET for the harness's checks, outside any measurement.
     *
     * @return the body, and the protocol the response came over as {@code HTTP/1.1} or {@code HTTP/2}
     */
    Checked check(URI uri) throws Exception;

    /** @param version {@code HTTP/1.1} or {@code HTTP/2}, whatever the client's own name for it */
    record Checked(String version, byte[] body) {
    }

    static BenchClient create(String name, int maxConnections, Protocol protocol) {
        return switch (name) {
            case "shuttle" -> new ShuttleBenchClient(protocol);
            case "shuttle-base" -> BaselineShuttle.create(protocol);
            case "jdk" -> new JdkBenchClient(protocol);
            case "okhttp" -> new OkHttpBenchClient(maxConnections, protocol);
            case "apache" -> {
                if (protocol != Protocol.H1) {
                    throw new IllegalArgumentException("the apache adapter is HTTP/1.1 only (classic API)");
                }
                yield new ApacheBenchClient(maxConnections);
            }
            case "jetty" -> new JettyBenchClient(maxConnections, protocol);
            default -> throw new IllegalArgumentException(
                    "unknown client " + name + " (shuttle, shuttle-base, jdk, okhttp, apache, jetty)");
        };
    }
}
