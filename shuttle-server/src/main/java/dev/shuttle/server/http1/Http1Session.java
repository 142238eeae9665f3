package dev.shuttle.server.http1;

import dev.shuttle.server.core.ProtocolSession;
import dev.shuttle.server.core.ServerConnection;
import dev.shuttle.server.core.ServerContext;
import dev.shuttle.server.io.ConnectionInput;
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
 * the connection's virtual thread; the parser and the keep-alive credit survive parking.
 */
public final class Http1Session implements ProtocolSession {
    private static final System.Logger LOG = System.getLogger(Http1Session.class.getName());

    /** After an error response, how long to keep reading (and discarding) so our close does not reset the response. */
    private static final long LINGER_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final long LINGER_MAX_BYTES = 256 * 1024;

    /**
     * How many times a connection whose client has not sent its next request yet lets the other virtual threads run,
     * looking for that request after each turn, before it parks. Parking costs a trip through the watcher for every
     * request of a busy keep-alive client (a request/response client such as wrk sends the next request only after
     * reading the response, so the socket is empty when the response leaves): two epoll_ctl calls, a selector wakeup
     * and two thread hand-offs, about a third of the server's CPU per request in the 64-connection benchmark. A turn
     * ({@link Thread#yield()}) lasts as long as one round of the server's other runnable work: on a busy server long
     * enough for a prompt client's next request to arrive (3 turns caught 65-75% of them with 64 wrk connections), on
     * an idle one a few microseconds, so a silent connection still parks almost at once (and, after one miss, at once:
     * {@link #KEEP_ALIVE_CREDIT}). A timed blocking read would be the obvious grace window, but every timed wait of a
     * virtual thread schedules and cancels a timer on the JDK's delay scheduler, which wakes that platform thread twice
     * per request: measured, it doubled the context switches per request and cost more CPU than parking did.
     */
    static final int KEEP_ALIVE_TURNS = 3;

    /**
     * Turns are taken only while they pay off for this connection: a next request found in them restores this many
     * credits, turns that find nothing cost one (a new connection starts with one). Without credit the connection
     * parks at once and tries the turns again every {@link #KEEP_ALIVE_PROBE_EVERY}th request. Eight misses in a row
     * are rare for a client the turns suit (about 30% of its turns miss under load, in bursts when the machine
     * stalls). A yield on a server with little else to run can wake an idle carrier thread for nothing, so a client
     * that pauses between requests (a browser, a batch job) would otherwise pay three wasted turns, and up to three
     * context switches, per request.
     */
    static final int KEEP_ALIVE_CREDIT = 8;
    static final int KEEP_ALIVE_PROBE_EVERY = 16;

    private enum Next { SERVE, PARK, CLOSE }

    private final ServerConnection connection;
    private final ServerContext context;
    private final KeepAliveTurn keepAliveTurn;
    private final Http1HeadParser parser;
    /**
     * Owned by the connection's current thread (a new thread sees the last one's value through the watcher's
     * hand-off): how many more keep-alive turns may miss before this connection stops taking them.
     */
    private int keepAliveCredit = 1;
    /** Owned by the connection's current thread. */
    private long requests;

    public Http1Session(ServerConnection connection, KeepAliveTurn keepAliveTurn) {
        this.connection = connection;
        this.context = connection.context();
        this.keepAliveTurn = keepAliveTurn;
        this.parser = new Http1HeadParser(context.http1Limits);
    }

    @Override
    public ProtocolSession.Next serve(long headDeadline) throws IOException {
        ConnectionInput input = connection.input();
        ConnectionOutput output = connection.output();
        while (true) {
            input.useDeadline(headDeadline);
            RequestHead head = readHead();
            if (head == null) {
                return ProtocolSession.Next.CLOSE;
            }
            requests++;
            connection.requestStarted();
            Http1Exchange.Outcome outcome = new Http1Exchange(context, connection, head, input, output).run();
            if (outcome == Http1Exchange.Outcome.CLOSE_LINGERING) {
                lingeringClose();
            }
            if (outcome != Http1Exchange.Outcome.KEEP_ALIVE || !connection.toIdle()) {
                return ProtocolSession.Next.CLOSE;
            }
            switch (awaitNextRequest()) {
                case SERVE -> headDeadline = context.now() + context.headerReadNanos;
                case PARK -> {
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
        ConnectionInput input = connection.input();
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
        LOG.log(Level.DEBUG, "connection {0}: rejecting with {1}: {2}", connection.id(), status, detail);
        ErrorResponses.write(connection.output(), status, detail);
        lingeringClose();
    }

    /**
     * Between requests (state IDLE): serve pipelined bytes at once, and bytes that arrive within
     * {@link #KEEP_ALIVE_TURNS} turns; otherwise park (or, with parking off, wait in a blocking read up to the idle
     * timeout, which returns at once for bytes already in the socket). The socket is not looked at before the first
     * turn: right after a response the client has rarely had time to answer, and each look is a system call.
     */
    private Next awaitNextRequest() throws IOException {
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
            arrived = context.parking ? lookWithinTurns() : 0;
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

    /**
     * Takes up to {@link #KEEP_ALIVE_TURNS} turns, looking for the next request's bytes after each, when this
     * connection has credit for them or it is time to try again ({@link #KEEP_ALIVE_CREDIT}).
     *
     * @return the bytes that arrived, 0 when none did (or no turn was taken), -1 when the client closed
     */
    private int lookWithinTurns() throws IOException {
        if (keepAliveCredit == 0 && requests % KEEP_ALIVE_PROBE_EVERY != 0) {
            return 0;
        }
        for (int turn = 0; turn < KEEP_ALIVE_TURNS; turn++) {
            keepAliveTurn.take(connection);
            int n = connection.input().fillNow();
            if (n != 0) {
                keepAliveCredit = KEEP_ALIVE_CREDIT;
                return n;
            }
        }
        keepAliveCredit = Math.max(0, keepAliveCredit - 1);
        return 0;
    }

    private void lingeringClose() {
        ConnectionInput input = connection.input();
        try {
            connection.output().flush();
            connection.transport().shutdownOutput();
            long deadline = context.now() + LINGER_NANOS;
            input.useDeadline(deadline);
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
