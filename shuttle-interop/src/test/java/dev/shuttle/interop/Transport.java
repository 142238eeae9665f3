package dev.shuttle.interop;

/** How a client reaches the server: HTTP/2 on a plaintext port, or over TLS with ALPN {@code h2}. */
enum Transport {
    /** h2c with prior knowledge: the connection preface is the client's first byte. */
    H2C("http"),
    /** TLS with ALPN h2, the server's certificate generated for the test run (clients skip verification). */
    TLS("https");

    private final String scheme;

    Transport(String scheme) {
        this.scheme = scheme;
    }

    String scheme() {
        return scheme;
    }
}
