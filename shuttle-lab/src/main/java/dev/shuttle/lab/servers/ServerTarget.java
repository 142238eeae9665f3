package dev.shuttle.lab.servers;

/**
 * One server under test: how to start it, in the child JVM that {@link ServerMain} runs, over one protocol, with the
 * lab's {@link ServerSettings}. The lab itself only calls {@link #checkSupported(Protocol)}, before it spends a
 * JVM on a combination that cannot work.
 */
public interface ServerTarget {
    /**
     * Throws {@link UnsupportedProtocolException} when this server cannot serve {@code protocol} in the lab. By
     * default h2c and HTTP/1.1 work and TLS is refused: h2 (TLS with ALPN) is not wired up for any server yet, and
     * https (HTTP/1.1 over TLS) only for the servers that override this.
     */
    default void checkSupported(Protocol protocol) {
        if (protocol == Protocol.H2) {
            throw new UnsupportedProtocolException("h2 (TLS with ALPN) is not wired up in the lab yet; use h2c");
        }
        if (protocol == Protocol.HTTPS) {
            throw new UnsupportedProtocolException("https (HTTP/1.1 over TLS) is wired up for shuttle, "
                    + "shuttle-noparking, jetty and netty only");
        }
    }

    /** The check for the servers that serve https too: only h2 is refused. */
    static void checkSupportedWithHttps(Protocol protocol) {
        if (protocol == Protocol.H2) {
            throw new UnsupportedProtocolException("h2 (TLS with ALPN) is not wired up in the lab yet; use h2c");
        }
    }

    /**
     * Starts the server on 127.0.0.1, an ephemeral port, serving {@code GET /} with {@link ServerSettings#BODY};
     * over TLS with the key store of {@link ServerSettings#keyStore()}.
     */
    RunningServer start(Protocol protocol, ServerSettings settings) throws Exception;
}
