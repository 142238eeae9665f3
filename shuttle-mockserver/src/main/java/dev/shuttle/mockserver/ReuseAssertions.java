package dev.shuttle.mockserver;

import java.util.Locale;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Assertions on what a {@link MockServer} counted, for any test framework: each failed check throws an
 * {@link AssertionError} whose message carries the counts and the requests per connection.
 *
 * <pre>
 * ReuseAssertions.assertReuse(server)
 *         .newConnectionsAtMost(1)            // these 100 calls shared one connection
 *         .tlsHandshakesAtMost(1)             // no TLS handshake after the first
 *         .bytesWrittenAtMost(256 * 1024);    // the client took no more than 256 KiB (await the close first)
 * </pre>
 *
 * Checks read the server's counts at the moment they run; {@link #since} starts them from an earlier snapshot, so a
 * warm-up does not count.
 */
public final class ReuseAssertions {
    private final MockServer server;
    private final ReuseStats baseline; // null: from start

    private ReuseAssertions(MockServer server, ReuseStats baseline) {
        this.server = server;
        this.baseline = baseline;
    }

    /**
     * {@return assertions on what {@code server} counted so far}
     *
     * @param server the mock server the client under test called
     */
    public static ReuseAssertions assertReuse(MockServer server) {
        return new ReuseAssertions(server, null);
    }

    /**
     * Counts from {@code earlier} (a {@link MockServer#stats()} taken before the calls under test) on.
     *
     * @param earlier the snapshot to count from
     * @return assertions on the counts since then
     */
    public ReuseAssertions since(ReuseStats earlier) {
        return new ReuseAssertions(server, earlier);
    }

    private ReuseStats current() {
        ReuseStats now = server.stats();
        return baseline == null ? now : now.minus(baseline);
    }

    /**
     * Asserts at most {@code max} new connections.
     *
     * @param max the most new connections accepted
     * @return these assertions, for chaining
     */
    public ReuseAssertions newConnectionsAtMost(long max) {
        ReuseStats s = current();
        check(s.connections() <= max, () -> "expected at most " + max + " new connection" + (max == 1 ? "" : "s"), s);
        return this;
    }

    /**
     * Asserts exactly {@code expected} new connections.
     *
     * @param expected the number of new connections
     * @return these assertions, for chaining
     */
    public ReuseAssertions newConnections(long expected) {
        ReuseStats s = current();
        check(s.connections() == expected, () -> "expected exactly " + expected + " new connections", s);
        return this;
    }

    /**
     * Asserts exactly {@code expected} requests, so a reuse figure is not met by sending fewer.
     *
     * @param expected the number of requests
     * @return these assertions, for chaining
     */
    public ReuseAssertions requests(long expected) {
        ReuseStats s = current();
        check(s.requests() == expected, () -> "expected exactly " + expected + " requests", s);
        return this;
    }

    /**
     * Reused requests / requests ≥ {@code min}: 0.95 means at most 5 of 100 calls opened a connection.
     *
     * @param min the lowest ratio accepted, 0 to 1
     * @return these assertions, for chaining
     */
    public ReuseAssertions reuseRatioAtLeast(double min) {
        ReuseStats s = current();
        check(s.reuseRatio() >= min, () -> String.format(Locale.ROOT, "expected a reuse ratio of at least %.2f", min),
                s);
        return this;
    }

    /**
     * Asserts at most {@code max} TLS handshakes, full or resumed.
     *
     * @param max the most handshakes accepted
     * @return these assertions, for chaining
     */
    public ReuseAssertions tlsHandshakesAtMost(long max) {
        ReuseStats s = current();
        check(s.tlsHandshakes() <= max, () -> "expected at most " + max + " TLS handshake" + (max == 1 ? "" : "s"), s);
        return this;
    }

    /**
     * Every handshake after the first resumed a session: the client kept its session cache.
     *
     * @param max the most full handshakes accepted
     * @return these assertions, for chaining
     */
    public ReuseAssertions fullTlsHandshakesAtMost(long max) {
        ReuseStats s = current();
        check(s.tlsHandshakes() - s.tlsResumed() <= max, () -> "expected at most " + max + " full TLS handshakes", s);
        return this;
    }

    /**
     * The sockets accepted at most {@code max} bytes (heads and framing included): what the client took, whether its
     * code read it or not. Call {@link MockServer#awaitConnectionsClosed} after closing the client first.
     *
     * @param max the most bytes accepted
     * @return these assertions, for chaining
     */
    public ReuseAssertions bytesWrittenAtMost(long max) {
        ReuseStats s = current();
        check(s.bytesWritten() <= max, () -> "expected at most " + max + " bytes written", s);
        return this;
    }

    private void check(boolean ok, Supplier<String> expectation, ReuseStats s) {
        if (ok) {
            return;
        }
        ReuseStats all = server.stats();
        String perConnection = all.perConnection().stream()
                .skip(Math.max(0, all.perConnection().size() - 20))
                .map(c -> "#" + c.id() + ":" + c.requests())
                .collect(Collectors.joining(" "));
        throw new AssertionError(expectation.get() + ", but counted " + s + "\n  requests per connection (last 20): "
                + (perConnection.isEmpty() ? "none" : perConnection));
    }
}
