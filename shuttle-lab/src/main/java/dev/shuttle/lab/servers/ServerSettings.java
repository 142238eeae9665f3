package dev.shuttle.lab.servers;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;

/**
 * What every server under test is given, so they differ only in their own machinery: the same trivial response and
 * the same HTTP/2 stream limits, and idle timeouts long enough to outlive a measurement (as seed 001 raised Go's
 * IdleTimeout to 30 minutes). Threads, buffers and everything else stay at each server's defaults.
 *
 * @param maxConcurrentStreams SETTINGS_MAX_CONCURRENT_STREAMS: 100, the RFC 9113 §6.5.2 recommended minimum, the
 *                             default of Tomcat and Undertow (Jetty 128, Go 250)
 * @param initialWindowSize    SETTINGS_INITIAL_WINDOW_SIZE: 65 535, the protocol default, so no server starts with a
 *                             larger per-stream receive window than another
 * @param idleTimeout          keep-alive / HTTP/2 idle timeout: 30 minutes
 * @param backlog              listen backlog: 1024, so 32 concurrent dials never overflow it
 * @param keyStore             over TLS: the lab's PKCS#12 key store ({@link LabTls}), the same certificate for every
 *                             server; null in cleartext
 */
public record ServerSettings(int maxConcurrentStreams, int initialWindowSize, Duration idleTimeout, int backlog,
                             Path keyStore) {
    /** The body every server sends for {@code GET /}, with Content-Length and Content-Type: text/plain. */
    public static final byte[] BODY = "hello from the lab\n".getBytes(StandardCharsets.US_ASCII);

    public static final ServerSettings DEFAULTS = new ServerSettings(100, 65_535, Duration.ofMinutes(30), 1024,
            null);

    public ServerSettings withKeyStore(Path keyStore) {
        return new ServerSettings(maxConcurrentStreams, initialWindowSize, idleTimeout, backlog, keyStore);
    }

    /** The key store, or an error saying the lab did not hand one over. */
    public Path requireKeyStore() {
        if (keyStore == null) {
            throw new IllegalStateException("TLS needs the lab's key store (ServerMain's third argument)");
        }
        return keyStore;
    }

    public int idleTimeoutMillis() {
        return Math.toIntExact(idleTimeout.toMillis());
    }

    /** One line for reports. */
    public String describe() {
        return "max concurrent streams " + maxConcurrentStreams + ", initial stream window " + initialWindowSize
                + " B, idle timeout " + idleTimeout.toMinutes() + " min, backlog " + backlog + ", response "
                + BODY.length + " B text/plain with Content-Length";
    }
}
