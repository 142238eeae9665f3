package dev.shuttle.benchmarks.client;

import java.net.URI;
import java.util.Locale;

/**
 * What the benchmark asks every client to speak ({@code -Dprotocol}, default {@code h1}); each adapter configures its
 * client for it, and {@link ClientThroughput} checks once per client that the responses really came over it. Public,
 * as {@link TrustAll} is, for the baseline client's adapter, which another class loader defines
 * ({@link BaselineShuttle}).
 */
public enum Protocol {
    /** HTTP/1.1 over {@code http} (or over {@code https} with only http/1.1 in ALPN). */
    H1("http", "HTTP/1.1"),
    /** HTTP/2 on a plaintext connection: prior knowledge where the client has it. */
    H2C("http", "HTTP/2"),
    /** HTTP/2 over TLS, chosen by ALPN; the server's self-signed certificate is trusted blindly ({@link TrustAll}). */
    H2("https", "HTTP/2");

    private final String scheme;
    /** What {@link BenchClient.Checked#version()} must say. */
    final String version;

    Protocol(String scheme, String version) {
        this.scheme = scheme;
        this.version = version;
    }

    public static Protocol parse(String name) {
        return valueOf(name.toUpperCase(Locale.ROOT));
    }

    /** As {@code -Dprotocol} spells it. */
    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** @throws IllegalArgumentException when the URL's scheme cannot carry this protocol */
    void checkScheme(URI uri) {
        String given = uri.getScheme();
        if (this == H1 ? !"http".equals(given) && !"https".equals(given) : !scheme.equals(given)) {
            throw new IllegalArgumentException(this + " needs a " + scheme + " URL: " + uri);
        }
    }
}
