package dev.shuttle.server;

import dev.shuttle.transport.tls.TlsInfo;
import dev.shuttle.wire.HttpVersion;
import java.net.InetSocketAddress;

/**
 * A read-only view of one server connection, handed to {@link ConnectionListener} and available from
 * {@link Request#connection()}. Counters are live and may be read from any thread.
 */
public interface ConnectionInfo {
    /**
     * Unique per server, increasing in accept order, starting at 1.
     *
     * @return the connection's id
     */
    long id();

    /** {@return the client's address} */
    InetSocketAddress remoteAddress();

    /** {@return the server's address the client connected to} */
    InetSocketAddress localAddress();

    /**
     * {@return the protocol spoken on the connection: {@link HttpVersion#HTTP_2} for HTTP/2,
     * {@link HttpVersion#HTTP_1_1} for HTTP/1 (whatever each request says)}
     */
    HttpVersion protocol();

    /** {@return the TLS session's details once its handshake is done; null on a plaintext connection (and before)} */
    TlsInfo tls();

    /** {@return where the connection is in its life now} */
    ConnectionState state();

    /**
     * Bytes received from the peer so far, framing included.
     *
     * @return bytes read so far
     */
    long bytesRead();

    /**
     * Bytes the socket accepted for sending so far (heads, framing and bodies): what the server actually wrote.
     *
     * @return bytes written so far
     */
    long bytesWritten();

    /**
     * Requests whose handling started on this connection.
     *
     * @return requests started so far (HTTP/2: streams whose handler started)
     */
    long requestCount();
}
