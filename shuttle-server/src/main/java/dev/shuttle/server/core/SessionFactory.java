package dev.shuttle.server.core;

import java.util.List;

/** Picks and makes the protocol session of each connection. */
public interface SessionFactory {
    /**
     * @param applicationProtocol {@code h2} for HTTP/2 (ALPN, or cleartext prior knowledge), {@code http/1.1} or null
     *                            for HTTP/1.x
     */
    ProtocolSession create(ServerConnection connection, String applicationProtocol);

    /**
     * ALPN: the protocol to use from the client's offer; "" to use none; null to refuse the handshake with
     * {@code no_application_protocol} (a client offering only protocols this server does not speak).
     */
    String selectApplicationProtocol(List<String> offered);

    /** Whether a plaintext connection that starts with HTTP/2's preface is served as HTTP/2 (prior knowledge). */
    boolean cleartextHttp2();
}
