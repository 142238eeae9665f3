package dev.shuttle.lab.load;

import dev.shuttle.lab.servers.Protocol;
import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

/**
 * One client connection of the lab's load generator and idle holder, speaking just enough of its protocol to send
 * {@code GET /} and read the answer (or, for {@code lab busy --generator shuttle}, Shuttle's own client:
 * {@link ShuttleClientConnection}). Owned by one thread at a time (the thread that sends also reads); only
 * {@link #close()} may come from another thread.
 */
public sealed interface LabConnection extends Closeable permits H2cConnection, Http1Connection,
        ShuttleClientConnection {
    /**
     * One response: its stream (1 on HTTP/1.1), its status (-1 when the server reset the stream, 0 when an HTTP/2
     * server encoded it in a way the lab does not decode) and when it was sent.
     */
    record Completion(int streamId, int status, long sentNanos) {
        /** A complete response that is not an error status; an undecoded status counts as answered. */
        public boolean ok() {
            return status == 0 || status >= 200 && status < 300;
        }
    }

    /**
     * Opens a connection to {@code address} over {@code protocol} (h2c, http1, or https with {@code tls}: an
     * {@code SSLSocket} that offers ALPN {@code http/1.1} only, checks the host name, and completes its handshake
     * here, before the first request).
     */
    static LabConnection open(Protocol protocol, InetSocketAddress address, SSLContext tls, Duration timeout)
            throws IOException {
        Socket socket = new Socket();
        try {
            socket.setTcpNoDelay(true);
            socket.connect(address, Math.toIntExact(timeout.toMillis()));
            socket.setSoTimeout(Math.toIntExact(timeout.toMillis()));
            String authority = address.getHostString() + ":" + address.getPort();
            return switch (protocol) {
                case H2C -> new H2cConnection(socket, authority);
                case HTTP1 -> new Http1Connection(socket, authority);
                case HTTPS -> new Http1Connection(handshake(socket, address, tls), authority);
                case H2 -> throw new IOException("h2 (TLS) is not supported by the lab's client yet");
            };
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
    }

    private static SSLSocket handshake(Socket socket, InetSocketAddress address, SSLContext tls) throws IOException {
        if (tls == null) {
            throw new IllegalArgumentException("https needs a client SSLContext");
        }
        SSLSocket ssl = (SSLSocket) tls.getSocketFactory().createSocket(socket, address.getHostString(),
                address.getPort(), true);
        SSLParameters parameters = ssl.getSSLParameters();
        parameters.setApplicationProtocols(new String[] {"http/1.1"});
        parameters.setEndpointIdentificationAlgorithm("HTTPS");
        ssl.setSSLParameters(parameters);
        ssl.startHandshake();
        return ssl;
    }

    /** Requests that may be outstanding at once: the server's stream limit on HTTP/2, 1 on HTTP/1.1. */
    int maxInFlight();

    /** Sends {@code GET /}. */
    void send() throws IOException;

    /** Reads until one outstanding request completes (answering PING and SETTINGS on the way). */
    Completion awaitResponse() throws IOException;

    /**
     * Stays on the connection without sending, answering what the protocol requires (PING, SETTINGS), until the
     * server closes it (returns normally) or it fails. Waits without a read timeout.
     */
    void holdIdle() throws IOException;
}
