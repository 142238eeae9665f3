package dev.shuttle.server.http1;

import dev.shuttle.server.ConnectionInfo;
import dev.shuttle.server.ConnectionState;
import dev.shuttle.server.io.ReadinessWatcher;
import dev.shuttle.server.io.SocketOutput;
import dev.shuttle.server.io.SocketSource;
import dev.shuttle.server.io.WriteWatchdog;
import dev.shuttle.wire.HttpVersion;
import dev.shuttle.wire.http1.Http1Exception;
import dev.shuttle.wire.http1.Http1HeadParser;
import dev.shuttle.wire.http1.RequestHead;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One HTTP/1.1 server connection: its state machine ({@link ConnectionState}) and its serve loop.
 *
 * <p>Threads. While NEW or PARKED the connection has no thread: the {@link ReadinessWatcher} holds its channel and
 * calls {@link #onReadable()} or {@link #closeParked} on the watcher thread. {@code onReadable} starts a fresh virtual
 * thread running {@link #resume()}, which owns the channel, the read and write buffers and the parser until it parks
 * the connection again or closes it; the handler runs on that same thread. Between requests that thread first takes
 * a few scheduler turns looking for the next request ({@link #KEEP_ALIVE_TURNS}), so a busy keep-alive client is
 * served without a trip through the watcher per request. Any thread may close the connection
 * (shutdown, write watchdog): the state lock makes the CLOSED transition happen once.
 *
 * <p>Buffers. A read buffer and a write buffer are borrowed from the server's pools when the thread starts and
 * returned before parking, so a parked connection holds only this object, its channel and two small stream wrappers.
 */
final class Http1Connection implements ConnectionInfo, ReadinessWatcher.Parkable, WriteWatchdog.Watched {
    private static final System.Logger LOG = System.getLogger(Http1Connection.class.getName());

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
     * stalls). A yield on a server with little else to run can wake an
     * idle carrier thread for nothing, so a client that pauses between requests (a browser, a batch job) would
     * otherwise pay three wasted turns, and up to three context switches, per request.
     */
    static final int KEEP_ALIVE_CREDIT = 8;
    static final int KEEP_ALIVE_PROBE_EVERY = 16;

    private enum Next { SERVE, PARKED, CLOSE }

    private final ServerContext context;
    private final long id;
    private final SocketChannel channel;
    private final InetSocketAddress remoteAddress;
    private final InetSocketAddress localAddress;
    private final SocketSource source;
    private final SocketOutput output;
    private final long acceptedNanos;

    private final ReentrantLock stateLock = new ReentrantLock();
    /** Guarded by stateLock for writes; volatile so {@link #state()} can read it without the lock. */
    private volatile ConnectionState state;
    /** Written only by the connection's current thread; read by any. */
    private volatile long requestCount;
    /**
     * Owned by the connection's current thread (a new thread sees the last one's value through the watcher's
     * hand-off): how many more keep-alive turns may miss before this connection stops taking them.
     */
    private int keepAliveCredit = 1;

    Http1Connection(ServerContext context, long id, SocketChannel channel) throws IOException {
        this.context = context;
        this.id = id;
        this.channel = channel;
        this.remoteAddress = (InetSocketAddress) channel.getRemoteAddress();
        this.localAddress = (InetSocketAddress) channel.getLocalAddress();
        this.source = new SocketSource(channel, context.nanoClock);
        this.output = new SocketOutput(channel, context.nanoClock);
        this.acceptedNanos = context.now();
    }

    /** Called once by the acceptor: reports NEW and waits in the watcher for the first bytes. */
    void open() {
        transition(null, ConnectionState.NEW);
        try {
            channel.configureBlocking(false);
        } catch (IOException e) {
            closeNow();
            return;
        }
        // A new connection that sends nothing is closed at the header-read deadline, silently, as Go and nginx do.
        if (!context.watcher.park(this, acceptedNanos + context.headerReadNanos)) {
            closeNow();
        }
    }

    // ---- watcher thread ----

    @Override
    public SocketChannel channel() {
        return channel;
    }

    @Override
    public void onReadable() {
        Thread.ofVirtual().name("shuttle-http1-" + id).start(this::resume);
    }

    @Override
    public void closeParked(ReadinessWatcher.CloseReason reason) {
        LOG.log(Level.TRACE, "connection {0} closed while waiting: {1}", id, reason);
        closeNow();
    }

    // ---- connection thread ----

    private void resume() {
        boolean parked = false;
        try {
            source.attach(context.readBuffers.acquire());
            output.attach(context.writeBuffers.acquire());
            ConnectionState from = state;
            long headDeadline = (from == ConnectionState.NEW ? acceptedNanos : context.now()) + context.headerReadNanos;
            source.useDeadline(headDeadline);
            int n;
            try {
                n = source.fill();
            } catch (SocketTimeoutException e) {
                n = -1;
            }
            if (n < 0 || !transition(from, ConnectionState.ACTIVE)) {
                return; // the peer closed an idle connection, or shutdown closed it meanwhile
            }
            parked = serve(headDeadline);
        } catch (ClosedChannelException e) {
            LOG.log(Level.TRACE, "connection {0} closed under us", id);
        } catch (IOException e) {
            LOG.log(Level.DEBUG, "connection " + id + " failed: " + e);
        } catch (Throwable t) {
            LOG.log(Level.ERROR, "connection " + id + " failed unexpectedly", t);
        } finally {
            if (!parked) {
                closeNow();
                releaseBuffers();
            }
        }
    }

    /**
     * Serves requests until the connection parks (returns true) or must close (returns false; the caller closes).
     */
    private boolean serve(long headDeadline) throws IOException {
        Http1HeadParser parser = new Http1HeadParser(context.http1Limits);
        while (true) {
            source.useDeadline(headDeadline);
            RequestHead head = readHead(parser);
            if (head == null) {
                return false;
            }
            requestCount++;
            context.registry.requestStarted();
            Http1Exchange.Outcome outcome = new Http1Exchange(context, this, head, source, output).run();
            if (outcome == Http1Exchange.Outcome.CLOSE_LINGERING) {
                lingeringClose();
            }
            if (outcome != Http1Exchange.Outcome.KEEP_ALIVE
                    || !transition(ConnectionState.ACTIVE, ConnectionState.IDLE)) {
                return false;
            }
            switch (awaitNextRequest()) {
                case SERVE -> headDeadline = context.now() + context.headerReadNanos;
                case PARKED -> {
                    return true;
                }
                case CLOSE -> {
                    return false;
                }
            }
        }
    }

    /** Reads one request head; on bad input or timeout answers with the error status and returns null. */
    private RequestHead readHead(Http1HeadParser parser) throws IOException {
        try {
            while (true) {
                RequestHead head = parser.parseRequest(source.buffer());
                if (head != null) {
                    return head;
                }
                if (source.fill() < 0) {
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
    void reject(int status, String detail) throws IOException {
        LOG.log(Level.DEBUG, "connection {0}: rejecting with {1}: {2}", id, status, detail);
        ErrorResponses.write(output, status, detail);
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
        int arrived = source.buffer().hasRemaining() ? 1 : context.parking ? lookWithinTurns() : 0;
        if (arrived < 0) {
            return Next.CLOSE; // the client closed its idle connection
        }
        if (arrived > 0) {
            return transition(ConnectionState.IDLE, ConnectionState.ACTIVE) ? Next.SERVE : Next.CLOSE;
        }
        if (!context.parking) {
            source.usePerReadTimeout(TimeUnit.NANOSECONDS.toMillis(context.idleNanos));
            int n;
            try {
                n = source.fill();
            } catch (SocketTimeoutException e) {
                return Next.CLOSE;
            }
            return n > 0 && transition(ConnectionState.IDLE, ConnectionState.ACTIVE) ? Next.SERVE : Next.CLOSE;
        }
        releaseBuffers();
        channel.configureBlocking(false);
        if (!transition(ConnectionState.IDLE, ConnectionState.PARKED)) {
            return Next.CLOSE; // closed by shutdown meanwhile
        }
        // From here on the watcher owns the channel: this thread must not touch it again.
        if (!context.watcher.park(this, context.now() + context.idleNanos)) {
            closeNow();
        }
        return Next.PARKED;
    }

    /**
     * Takes up to {@link #KEEP_ALIVE_TURNS} turns, looking for the next request's bytes after each, when this
     * connection has credit for them or it is time to try again ({@link #KEEP_ALIVE_CREDIT}).
     *
     * @return the bytes that arrived, 0 when none did (or no turn was taken), -1 when the client closed
     */
    private int lookWithinTurns() throws IOException {
        if (keepAliveCredit == 0 && requestCount % KEEP_ALIVE_PROBE_EVERY != 0) {
            return 0;
        }
        for (int turn = 0; turn < KEEP_ALIVE_TURNS; turn++) {
            context.keepAliveTurn.take(this);
            int n = source.fillNow();
            if (n != 0) {
                keepAliveCredit = KEEP_ALIVE_CREDIT;
                return n;
            }
        }
        keepAliveCredit = Math.max(0, keepAliveCredit - 1);
        return 0;
    }

    private void lingeringClose() {
        try {
            output.flush();
            channel.shutdownOutput();
            long deadline = context.now() + LINGER_NANOS;
            source.useDeadline(deadline);
            long discarded = 0;
            while (discarded < LINGER_MAX_BYTES) {
                ByteBuffer buffer = source.buffer();
                buffer.position(buffer.limit());
                int n = source.fill();
                if (n < 0) {
                    break;
                }
                discarded += n;
            }
        } catch (IOException e) {
            // timed out or reset: either way we are done with this connection
        } finally {
            closeNow();
        }
    }

    private void releaseBuffers() {
        if (source.isAttached()) {
            context.readBuffers.release(source.detach());
        }
        if (output.isAttached()) {
            context.writeBuffers.release(output.detach());
        }
    }

    // ---- any thread ----

    /**
     * Moves from {@code from} to {@code to} and tells the registry (and so the listener), under the state lock so
     * transitions of one connection are reported in order.
     *
     * @return false when the connection is no longer in {@code from} (closed by another thread)
     */
    private boolean transition(ConnectionState from, ConnectionState to) {
        stateLock.lock();
        try {
            if (state != from) {
                return false;
            }
            state = to;
            if (from == null) {
                context.registry.added(this);
            }
            context.registry.transitioned(this, from, to);
            return true;
        } finally {
            stateLock.unlock();
        }
    }

    /** Closes the connection now (idempotent); reports CLOSED once. */
    void closeNow() {
        close(null);
    }

    /** Shutdown: closes the connection if it sits between requests holding a thread (parking off). */
    void closeIfIdle() {
        close(ConnectionState.IDLE);
    }

    private void close(ConnectionState onlyFrom) {
        stateLock.lock();
        try {
            ConnectionState from = state;
            if (from == ConnectionState.CLOSED || (onlyFrom != null && from != onlyFrom)) {
                return;
            }
            state = ConnectionState.CLOSED;
            context.registry.transitioned(this, from, ConnectionState.CLOSED);
        } finally {
            stateLock.unlock();
        }
        // Outside the lock: closing a channel waits for I/O blocked on it to notice.
        try {
            channel.close();
        } catch (IOException e) {
            LOG.log(Level.TRACE, "closing connection " + id + " failed", e);
        }
    }

    /** Bytes in the socket not read yet (for tests staging a request between two keep-alive turns). */
    int bytesInSocket() throws IOException {
        return source.availableInSocket();
    }

    /**
     * Whether a read or write buffer is attached (for tests). Exact only while the connection is parked or idle,
     * when no thread is changing it.
     */
    boolean holdsBuffers() {
        return source.isAttached() || output.isAttached();
    }

    @Override
    public long writeStartedNanos() {
        return output.writeStartedNanos();
    }

    @Override
    public void abortWrite() {
        LOG.log(Level.DEBUG, "connection {0}: write timed out, closing", id);
        closeNow();
    }

    // ---- ConnectionInfo ----

    @Override
    public long id() {
        return id;
    }

    @Override
    public InetSocketAddress remoteAddress() {
        return remoteAddress;
    }

    @Override
    public InetSocketAddress localAddress() {
        return localAddress;
    }

    @Override
    public HttpVersion protocol() {
        return HttpVersion.HTTP_1_1;
    }

    @Override
    public ConnectionState state() {
        return state;
    }

    @Override
    public long bytesRead() {
        return source.bytesRead();
    }

    @Override
    public long bytesWritten() {
        return output.bytesWritten();
    }

    @Override
    public long requestCount() {
        return requestCount;
    }

    @Override
    public String toString() {
        return "Http1Connection[" + id + " " + remoteAddress + " " + state + "]";
    }
}
