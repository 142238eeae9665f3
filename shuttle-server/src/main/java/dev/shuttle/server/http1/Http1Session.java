package dev.shuttle.server.http1;

import dev.shuttle.server.Http2Options;
import dev.shuttle.server.core.KeepAliveTurn;
import dev.shuttle.server.core.KeepAliveTurns;
import dev.shuttle.server.core.LogText;
import dev.shuttle.server.core.ProtocolSession;
import dev.shuttle.server.core.ServerConnection;
import dev.shuttle.server.core.ServerContext;
import dev.shuttle.server.io.ConnectionInput;
import dev.shuttle.server.http2.H2cUpgrade;
import dev.shuttle.server.http2.Http2Session;
import dev.shuttle.server.io.ConnectionOutput;
import dev.shuttle.wire.http1.Http1Exception;
import dev.shuttle.wire.http1.Http1HeadParser;
import dev.shuttle.wire.http1.RequestHead;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

/**
 * HTTP/1.1 on one connection: the serve loop. Reads request heads, runs each exchange, and between requests either
 * finds the next one (pipelined, or arriving within a few scheduler turns) or tells the connection to park. Runs on
 * the connection's virtual thread; the keep-alive credit survives parking, the head parser does not.
 */
public final class Http1Session extends KeepAliveTurns implements ProtocolSession {
    private static final System.Logger LOG = System.getLogger(Http1Session.class.getName());

    /** After an error response, how long to keep reading (and discarding) so our close does not reset the response. */
    private static final long LINGER_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final long LINGER_MAX_BYTES = 256 * 1024;

    private enum Next { SERVE, PARK, CLOSE }

    // A parked connection keeps its session: fields only for what cannot be had from the connection.
    private final ServerConnection connection;
    /**
     * The head parser of the current activation: made when the connection wakes, dropped when it parks (a parked
     * connection is between heads), so an idle connection does not keep it and its line buffer.
     */
    private Http1HeadParser parser;
    /** HTTP/2 options when {@code Upgrade: h2c} is accepted, else null. */
    private final Http2Options h2c;
    /** The exchange whose handler runs, for {@link #closed()} from another thread; written by the connection thread. */
    private volatile Http1Exchange running;

    public Http1Session(ServerConnection connection, KeepAliveTurn keepAliveTurn, Http2Options h2c) {
        super(keepAliveTurn);
        this.connection = connection;
        this.h2c = h2c;
    }

    @Override
    public long idleTimeoutNanos() {
        return connection.context().idleNanos;
    }

    @Override
    public ProtocolSession.Next serve(long headDeadline) throws IOException {
        ServerContext context = connection.context();
        ConnectionInput input = connection.input();
        ConnectionOutput output = connection.output();
        while (true) {
            input.useDeadline(headDeadline);
            RequestHead head = readHead();
            if (head == null) {
                return ProtocolSession.Next.CLOSE;
            }
            connection.requestStarted();
            if (h2c != null && H2cUpgrade.requested(head)) {
                Http2Session upgraded = H2cUpgrade.accept(connection, h2c, head);
                if (upgraded != null) {
                    connection.switchTo(upgraded);
                    return ProtocolSession.Next.SWITCH;
                }
            }
            Http1Exchange exchange = new Http1Exchange(context, connection, head, input, output);
            running = exchange;
            Http1Exchange.Outcome outcome;
            try {
                outcome = exchange.run();
            } finally {
                running = null;
            }
            if (outcome == Http1Exchange.Outcome.CLOSE_LINGERING) {
                lingeringClose();
            }
            if (outcome != Http1Exchange.Outcome.KEEP_ALIVE || !connection.toIdle()) {
                return ProtocolSession.Next.CLOSE;
            }
            switch (awaitNextRequest()) {
                case SERVE -> headDeadline = context.now() + context.headerReadNanos;
                case PARK -> {
                    parser = null;
                    return ProtocolSession.Next.PARK;
                }
                case CLOSE -> {
                    return ProtocolSession.Next.CLOSE;
                }
            }
        }
    }

    /** Reads one request head; on bad input or timeout answers with the error status and returns null. */
    private RequestHead readHead() throws IOException {
        ServerContext context = connection.context();
        ConnectionInput input = connection.input();
        if (parser == null) {
            parser = new Http1HeadParser(context.http1Limits);
        }
        try {
            while (true) {
                RequestHead head = parser.parseRequest(input.buffer());
                if (head != null) {
                    return head;
                }
                if (input.fill() < 0) {
                    return null; // the peer closed, possibly mid-head: no one to answer
                }
            }
        } catch (SocketTimeoutException e) {
            // ACTIVE means bytes of this head arrived, so the client is slow, not idle (RFC 9110 15.5.9).
            reject(408, "request head not received within " + context.timeouts.headerRead().toMillis() + " ms");
            return null;
        } catch (Http1Exception e) {
            reject(e.status(), e.getMessage());
            return null;
        }
    }

    /** Answers {@code status} and closes, reading what the client still sends for a moment so it gets the answer. */
    private void reject(int status, String detail) throws IOException {
        LOG.log(Level.DEBUG, "connection {0}: rejecting with {1}: {2}", connection.id(), status,
                LogText.excerpt(detail));
        ErrorResponses.write(connection.output(), status, detail);
        lingeringClose();
    }

    /**
     * Between requests (state IDLE): serve pipelined bytes at once, and bytes that arrive within a few scheduler
     * turns ({@link KeepAliveTurns}); otherwise park (or, with parking off, wait in a blocking read up to the idle
     * timeout, which returns at once for bytes already in the socket). The socket is not looked at before the first
     * turn: right after a response the client has rarely had time to answer, and each look is a system call.
     */
    private Next awaitNextRequest() throws IOException {
        ServerContext context = connection.context();
        if (context.draining()) {
            return Next.CLOSE;
        }
        ConnectionInput input = connection.input();
        int arrived;
        if (input.buffer().hasRemaining()) {
            arrived = 1;
        } else if (input.hasBufferedInput()) {
            arrived = input.fillNow(); // a TLS record already received: decrypt it rather than wait for readiness
        } else {
            arrived = context.parking ? lookForNextBytes(connection) : 0;
        }
        if (arrived < 0) {
            return Next.CLOSE; // the client closed its idle connection
        }
        if (arrived > 0) {
            return connection.toActive() ? Next.SERVE : Next.CLOSE;
        }
        if (input.hasBufferedInput()) {
            return connection.toActive() ? Next.SERVE : Next.CLOSE; // a record without application bytes came first
        }
        if (!context.parking) {
            input.usePerReadTimeout(TimeUnit.NANOSECONDS.toMillis(context.idleNanos));
            int n;
            try {
                n = input.fill();
            } catch (SocketTimeoutException e) {
                return Next.CLOSE;
            }
            return n > 0 && connection.toActive() ? Next.SERVE : Next.CLOSE;
        }
        return Next.PARK;
    }

    /** The connection closed (shutdown's deadline, the write watchdog, a failure): the running request is cancelled. */
    @Override
    public void closed() {
        Http1Exchange exchange = running;
        if (exchange != null) {
            exchange.connectionClosed();
        }
    }

    /**
     * Closes after an error answer without destroying it: flush, half-close (the client sees EOF right after the
     * answer), then read and discard what the client still sends for up to 1 s / 256 KiB. Closing with unread bytes in
     * the socket would send a TCP reset, which makes the client's kernel drop the answer before its application reads
     * it. (HTTP/2 does the same after its GOAWAY, parked meanwhile.)
     */
    private void lingeringClose() {
        try {
            connection.output().flush();
            connection.transport().shutdownOutput();
            ConnectionInput input = connection.input();
            input.useDeadline(connection.context().now() + LINGER_NANOS);
            long discarded = 0;
            while (discarded < LINGER_MAX_BYTES) {
                ByteBuffer buffer = input.buffer();
                buffer.position(buffer.limit());
                int n = input.fill();
                if (n < 0) {
                    break;
                }
                discarded += n;
            }
        } catch (IOException e) {
            // timed out or reset: either way we are done with this connection
        } finally {
            connection.closeNow();
        }
    }
}
