package dev.shuttle.server.core;

import dev.shuttle.server.io.ConnectionInput;
import dev.shuttle.transport.TlsTransport;
import dev.shuttle.transport.tls.TlsInfo;
import dev.shuttle.wire.http2.Http2Preface;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLException;

/**
 * A new connection's first bytes: the TLS handshake on a TLS server (with ALPN), HTTP/2's preface told from HTTP/1.x
 * on a plaintext one, and the protocol session picked. Runs on the connection's first reading thread, with its buffers
 * attached; keeps nothing.
 */
final class ConnectionSetup {
    private static final System.Logger LOG = System.getLogger(ConnectionSetup.class.getName());
    /** TLS record type of a handshake message: the first byte a TLS client sends. */
    private static final int TLS_HANDSHAKE_RECORD = 0x16;
    /** Go's answer, word for word, so people searching for it find the explanation. */
    private static final String PLAINTEXT_ON_TLS_TEXT = "Client sent an HTTP request to an HTTPS server.\n";
    private static final byte[] PLAINTEXT_ON_TLS = ("HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain\r\n"
            + "Content-Length: " + PLAINTEXT_ON_TLS_TEXT.length() + "\r\nConnection: close\r\n\r\n"
            + PLAINTEXT_ON_TLS_TEXT).getBytes(StandardCharsets.US_ASCII);

    /**
     * SERVE: a request's bytes are buffered and the session is chosen; WAIT: nothing arrived, wait again as before;
     * WAIT_FOR_REQUEST: handshaken, the request not sent yet (wait for it until the header deadline); CLOSE.
     */
    enum Outcome { SERVE, WAIT, WAIT_FOR_REQUEST, CLOSE }

    private ConnectionSetup() {
    }

    static Outcome establish(ServerConnection connection) throws IOException {
        ServerContext context = connection.context();
        ConnectionInput input = connection.input();
        int n = input.fillNow();
        if (n < 0) {
            return Outcome.CLOSE;
        }
        if (n == 0) {
            return Outcome.WAIT;
        }
        String applicationProtocol = null;
        if (context.tls != null) {
            if (!handshake(connection)) {
                return Outcome.CLOSE;
            }
            applicationProtocol = connection.transport().tls().applicationProtocol();
            if (!input.buffer().hasRemaining()) {
                int more = input.fillNow();
                if (more < 0) {
                    return Outcome.CLOSE;
                }
                if (more == 0) {
                    // Handshaken but no request yet (TLS 1.3 clients send it right behind their Finished; others
                    // after a round trip): wait, still NEW, until the first request byte or the header deadline.
                    connection.useSession(applicationProtocol);
                    return Outcome.WAIT_FOR_REQUEST;
                }
            }
        } else if (context.sessions.cleartextHttp2() && startsWithPreface(connection)) {
            applicationProtocol = "h2";
        }
        connection.useSession(applicationProtocol);
        return Outcome.SERVE;
    }

    /**
     * Whether the bytes received so far begin HTTP/2's client preface (prior knowledge). Reads on, within the header
     * deadline, while they match but are not all there yet; consumes nothing.
     */
    private static boolean startsWithPreface(ServerConnection connection) throws IOException {
        ConnectionInput input = connection.input();
        input.useDeadline(connection.acceptedNanos() + connection.context().headerReadNanos);
        while (true) {
            switch (Http2Preface.read(input.buffer().duplicate())) {
                case COMPLETE -> {
                    return true;
                }
                case MISMATCH -> {
                    return false;
                }
                case PARTIAL -> {
                    if (input.fill() < 0) {
                        return false;
                    }
                }
            }
        }
    }

    /** Runs the server side of the TLS handshake on the bytes already read; false when the connection must close. */
    private static boolean handshake(ServerConnection connection) throws IOException {
        ServerContext context = connection.context();
        ByteBuffer received = connection.input().buffer();
        if ((received.get(received.position()) & 0xff) != TLS_HANDSHAKE_RECORD) {
            if (Character.isLetter(received.get(received.position()))) {
                LOG.log(Level.DEBUG, "connection {0}: plaintext HTTP on the TLS port", connection.id());
                connection.transport().write(PLAINTEXT_ON_TLS, 0, PLAINTEXT_ON_TLS.length);
            }
            return false;
        }
        TlsTransport secure = TlsTransport.server(connection.channel(), context.buffers, context.nanoClock,
                context.tls, context.sessions::selectApplicationProtocol);
        secure.prepend(received); // the ClientHello's first bytes, read while detecting
        received.position(received.limit());
        int timeoutMillis = (int) Math.max(1, TimeUnit.NANOSECONDS.toMillis(
                connection.acceptedNanos() + context.tlsHandshakeNanos - context.now()));
        TlsInfo info;
        try {
            info = secure.handshake(timeoutMillis);
        } catch (SocketTimeoutException e) {
            LOG.log(Level.DEBUG, "connection {0}: TLS handshake timed out", connection.id());
            return false;
        } catch (SSLException e) {
            // One short line: scanners and misconfigured clients fail handshakes all day; a stack trace per
            // failure would drown the log, and nothing else is affected.
            LOG.log(Level.INFO, "TLS handshake from {0} failed: {1}", connection.remoteAddress(), e.getMessage());
            return false;
        }
        connection.handshaken(secure, info);
        return true;
    }
}
