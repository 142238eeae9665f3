package dev.shuttle.server.core;

/** Makes the protocol session of a connection once its protocol is known. */
@FunctionalInterface
public interface SessionFactory {
    /**
     * @param applicationProtocol the ALPN protocol a TLS handshake chose, or null (plaintext, or no ALPN)
     */
    ProtocolSession create(ServerConnection connection, String applicationProtocol);
}
