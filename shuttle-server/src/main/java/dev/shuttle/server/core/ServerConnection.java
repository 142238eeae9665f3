package dev.shuttle.server.core;

import dev.shuttle.server.ConnectionInfo;
import dev.shuttle.server.ConnectionState;
import dev.shuttle.server.io.ConnectionInput;
import dev.shuttle.server.io.ConnectionOutput;
import dev.shuttle.transport.PlainTransport;
import dev.shuttle.transport.ReadinessWatcher;
import dev.shuttle.transport.TlsTransport;
import dev.shuttle.transport.Transport;
import dev.shuttle.transport.WriteWatchdog;
import dev.shuttle.transport.tls.TlsInfo;
import dev.shuttle.wire.HttpVersion;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SocketChannel;

/**
 * One server connection's state machine ({@link ConnectionState}) and serve loop, whatever its protocol: set up on its
 * first bytes ({@link ConnectionSetup}), then served by its {@link ProtocolSession} until it parks ({@link ParkGate})
 * or closes; listener events in order ({@link ConnectionReporting}).
 *
 * <p>Threads. While NEW or PARKED the connection has no thread: the readiness watcher holds its channel. When the
 * watcher hands it back ({@link #onWake}), a fresh virtual thread ({@code shuttle-conn-<id>}) takes over: it owns the
 * channel, the buffers and the session until it parks the connection again or closes it; HTTP/1 handlers run on it,
 * and an HTTP/2 reader may run one handler on it after the park ({@link ProtocolSession#takeKeptHandler}).
 * The watcher thread only starts that thread. Any thread may close the connection (shutdown, the write watchdog): the
 * state lock makes the CLOSED transition happen once; the watchdog closes without delivering the listener's event,
 * which the writer it unblocks delivers.
 *
 * <p>Buffers: a read buffer is borrowed from the server's pool when the thread starts, a write buffer when it first
 * writes (given back when the connection goes idle between requests), and both are returned before parking; a TLS
 * transport returns its record buffers too. A parked connection holds this object, its transport (with the channel;
 * for TLS, the {@code SSLEngine}), its stay in the watcher, and its session's small state.
 */
public final class ServerConnection extends ParkGate implements WriteWatchdog.Watched {
    private static final System.Logger LOG = System.getLogger(ServerConnection.class.getName());

    /** Why the watcher handed a parked connection back, when it was not bytes arriving. */
    public enum End { DEADLINE, SHUTDOWN, FAILED }

    // Memory: a parked connection keeps this object, so it keeps no field it can recompute. The channel, both
    // addresses and the TLS details are the transport's; the protocol is the session's.
    private final long acceptedNanos;

    /** Plaintext until a TLS handshake replaced it; written by the connection thread, read by any (close, stats). */
    private volatile Transport transport;
    /** Written by the connection's current thread, read by the shutting-down one; null until the protocol is known. */
    private volatile ProtocolSession session;
    /**
     * The reading and writing side with their pooled buffers, while a thread works on the connection: made when it
     * starts ({@link #attachBuffers}), dropped when it parks or closes ({@link #releaseBuffers}), null meanwhile.
     * Owned by the connection's current thread.
     */
    private ConnectionInput input;
    /** Owned by the connection's current thread, made and dropped with {@link #input}. */
    private ConnectionOutput output;
    /** Guarded by stateLock for writes; volatile so {@link #state()} can read it without the lock. */
    private volatile ConnectionState state;

    ServerConnection(ServerContext context, long id, SocketChannel channel) throws IOException {
        super(context, id);
        this.transport = new PlainTransport(channel, context.buffers, context.nanoClock);
        this.acceptedNanos = context.now();
    }

    /** Called once by the acceptor: reports NEW and waits in the watcher for the first bytes. */
    void open() {
        transition(null, ConnectionState.NEW);
        try {
            channel().configureBlocking(false);
        } catch (IOException e) {
            closeNow();
            return;
        }
        // A new connection that sends nothing is closed at its deadline, silently, as Go and nginx do.
        long firstBytesWithin = context.tls != null ? context.tlsHandshakeNanos : context.headerReadNanos;
        if (!parkNew(acceptedNanos + firstBytesWithin)) {
            closeNow();
        }
    }

    // ---- watcher thread ----

    @Override
    public SocketChannel channel() {
        return transport.channel();
    }

    @Override
    public void onWake(ReadinessWatcher.Wake reason) {
        context.wakes.handOff(Thread.ofVirtual().name("shuttle-conn-" + id).unstarted(() -> woken(reason)));
    }

    // ---- connection thread ----

    private void woken(ReadinessWatcher.Wake reason) {
        handedBack();
        switch (reason) {
            case READABLE -> resume();
            case DEADLINE -> ended(End.DEADLINE);
            case SHUTDOWN -> ended(End.SHUTDOWN);
            case FAILED -> ended(End.FAILED);
        }
    }

    private void ended(End reason) {
        LOG.log(Level.TRACE, "connection {0} handed back while waiting: {1}", id, reason);
        ProtocolSession current = session;
        if (current != null && reason != End.FAILED) {
            boolean keepServing = false;
            try {
                keepServing = current.parkedEnd(reason);
            } catch (RuntimeException e) {
                LOG.log(Level.DEBUG, "connection " + id + ": goodbye failed: " + e);
            }
            if (keepServing) {
                serve(context.now() + context.headerReadNanos, state);
                return;
            }
        }
        closeNow();
        releaseBuffers();
    }

    /** Readiness: the first bytes of a new connection, or the next bytes of a parked one. */
    private void resume() {
        boolean parked = false;
        try {
            attachBuffers();
            ConnectionState from = state;
            long headDeadline;
            if (session == null) {
                ConnectionSetup.Outcome outcome = ConnectionSetup.establish(this);
                if (outcome != ConnectionSetup.Outcome.SERVE) {
                    parked = outcome != ConnectionSetup.Outcome.CLOSE && readerIdle(false,
                            outcome == ConnectionSetup.Outcome.WAIT ? 0 : context.now() + context.headerReadNanos);
                    return;
                }
                headDeadline = (from == ConnectionState.NEW ? acceptedNanos : context.now())
                        + context.headerReadNanos;
            } else {
                int n = transport.isSharedWithWriters() && tls() == null ? input.fillReady() : input.fillNow();
                if (n == 0 && transport.isSharedWithWriters()) {
                    n = input.tellEndFromNothing();
                }
                if (n < 0) {
                    return; // the peer closed an idle connection
                }
                if (n == 0) {
                    // Readiness without application bytes (a TLS record such as a key update, or nothing at all):
                    // wait again, in the same state and until the same deadline.
                    parked = readerIdle(false, 0);
                    return;
                }
                headDeadline = context.now() + context.headerReadNanos;
            }
            parked = true; // serve() owns the outcome from here
            serve(headDeadline, from);
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

    /** Runs the session from {@code from} (NEW, PARKED or IDLE) until it parks the connection or closes it. */
    private void serve(long headDeadline, ConnectionState from) {
        boolean parked = false;
        Runnable kept = null;
        try {
            if (input == null) {
                attachBuffers();
            }
            if (from != ConnectionState.ACTIVE && !transition(from, ConnectionState.ACTIVE)) {
                return; // shutdown closed it meanwhile
            }
            while (true) {
                ProtocolSession.Next next = session.serve(headDeadline);
                if (next == ProtocolSession.Next.SWITCH) {
                    headDeadline = context.now() + context.headerReadNanos;
                    continue; // the session replaced itself (h2c upgrade): the new one serves on
                }
                kept = next == ProtocolSession.Next.PARK ? session.takeKeptHandler() : null;
                parked = next == ProtocolSession.Next.PARK && readerIdle(true, 0);
                return;
            }
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
            if (kept != null) {
                kept.run(); // parked (or closed, and then it fails as a started thread would)
            }
        }
    }

    /** Creates the protocol session for what ALPN or the preface chose, and says which protocol it speaks. */
    void useSession(String applicationProtocol) {
        session = context.sessions.create(this, applicationProtocol);
    }

    /** The TLS handshake completed: the secure transport replaces the plain one, and the listener hears of it. */
    void handshaken(TlsTransport secure, TlsInfo info) {
        transport = secure; // from now on tls() reports the handshake
        input.use(secure);
        output.use(secure);
        if (context.registry.hasListener()) {
            dispatch(() -> context.registry.notifyTlsHandshake(this, info));
        }
    }

    long acceptedNanos() {
        return acceptedNanos;
    }

    /**
     * Called by the session between requests: the connection goes idle (IDLE) and must not park. Its output gives its
     * (flushed, so empty) buffer back: nothing is written until the next request.
     */
    public boolean toIdle() {
        output.releaseBuffer();
        return transition(ConnectionState.ACTIVE, ConnectionState.IDLE);
    }

    /** The next request's bytes arrived while IDLE. */
    public boolean toActive() {
        return transition(ConnectionState.IDLE, ConnectionState.ACTIVE);
    }

    /**
     * The session replaces itself (HTTP/1.1 upgraded to h2c); it returns {@link ProtocolSession.Next#SWITCH} next. The
     * connection's protocol is the new session's from now on.
     */
    public void switchTo(ProtocolSession next) {
        this.session = next;
    }

    // ---- the park gate's side ----

    /**
     * The reading thread has nothing to read: give its buffers back and park, or leave the park to the last writer
     * ({@link ParkGate#readerLeaves}).
     *
     * @return false when the connection must close instead (shutdown began)
     */
    private boolean readerIdle(boolean fromIdle, long waitUntil) throws IOException {
        if (input.hasBufferedInput()) {
            throw new IllegalStateException("parking with input buffered");
        }
        releaseBuffers();
        return readerLeaves(fromIdle, waitUntil);
    }

    @Override
    ProtocolSession session() {
        return session;
    }

    @Override
    void serveOnNewThread(ConnectionState from) {
        Thread.ofVirtual().name("shuttle-conn-" + id).start(() -> serve(context.now() + context.headerReadNanos, from));
    }

    /**
     * A thread starts working on the connection: its input, with a pooled buffer, and its output, which borrows one
     * when it first writes.
     */
    private void attachBuffers() {
        Transport current = transport;
        input = new ConnectionInput(current, context.nanoClock, this, context.buffers.acquire());
        output = new ConnectionOutput(current, this, context.buffers); // borrows its buffer when it first writes
    }

    /**
     * Gives back the reader's buffers, and drops the input and output that held them (no-op for those not held); the
     * connection's reading thread only.
     */
    private void releaseBuffers() {
        ConnectionInput in = input;
        if (in != null) {
            input = null;
            context.buffers.release(in.detach());
        }
        ConnectionOutput out = output;
        if (out != null) {
            output = null;
            context.buffers.release(out.detach());
        }
        transport.releaseBuffers();
    }

    // ---- for sessions, on the connection thread ----

    public ServerContext context() {
        return context;
    }

    @Override
    public Transport transport() {
        return transport;
    }

    /** The reading side; only while this thread works on the connection (null once it parked or closed). */
    public ConnectionInput input() {
        return input;
    }

    /** The writing side; only while this thread works on the connection (null once it parked or closed). */
    public ConnectionOutput output() {
        return output;
    }


    // ---- any thread ----

    /**
     * Moves from {@code from} to {@code to}, updates the registry, and queues the listener's event, under the state
     * lock; then delivers queued events outside it.
     *
     * @return false when the connection is no longer in {@code from} (closed by another thread)
     */
    private boolean transition(ConnectionState from, ConnectionState to) {
        boolean moved;
        stateLock.lock();
        try {
            moved = transitionLocked(from, to);
        } finally {
            stateLock.unlock();
        }
        deliverEvents();
        return moved;
    }

    /** The transition under the held lock; the caller delivers the queued event after unlocking. */
    @Override
    boolean transitionLocked(ConnectionState from, ConnectionState to) {
        assert stateLock.isHeldByCurrentThread();
        if (state != from) {
            return false;
        }
        state = to;
        if (from == null) {
            context.registry.added(this);
        }
        context.registry.transitioned(this, from, to);
        queueStateEventLocked(from, to);
        return true;
    }

    @Override
    public boolean lockedByCurrentThread() {
        ProtocolSession current = session;
        return stateLock.isHeldByCurrentThread() || (current != null && current.lockedByCurrentThread());
    }

    /**
     * Closes the connection now (idempotent); reports CLOSED once, and delivers what waits for the listener, so a
     * thread whose connection was closed under it (by the write watchdog) reports that close when it notices.
     */
    @Override
    public void closeNow() {
        close(null);
        deliverEvents();
    }

    /** Graceful shutdown began: the session may say goodbye (HTTP/2 GOAWAY). From the shutting-down thread. */
    void shutdownGracefully() {
        ProtocolSession current = session;
        if (current != null) {
            try {
                current.shutdown();
            } catch (RuntimeException e) {
                LOG.log(Level.DEBUG, "connection " + id + ": graceful shutdown failed: " + e);
            }
        }
    }

    /**
     * Shutdown: closes the connection if it sits between requests holding a thread (parking off), unless its session
     * has work left (an HTTP/2 connection is IDLE between reads while handlers run): that session closes it itself.
     */
    void closeIfIdle() {
        ProtocolSession current = session;
        if (current != null && current.hasUnfinishedWork()) {
            return;
        }
        close(ConnectionState.IDLE);
        deliverEvents();
    }

    /** Moves to CLOSED and closes the channel; queues the listener's event without delivering it. */
    private void close(ConnectionState onlyFrom) {
        ReadinessWatcher.Ticket parked;
        stateLock.lock();
        try {
            ConnectionState from = state;
            if (from == ConnectionState.CLOSED || (onlyFrom != null && from != onlyFrom)) {
                return;
            }
            state = ConnectionState.CLOSED;
            context.registry.transitioned(this, from, ConnectionState.CLOSED);
            queueStateEventLocked(from, ConnectionState.CLOSED);
            parked = takeTicketLocked();
        } finally {
            stateLock.unlock();
        }
        if (parked != null) {
            // Closed from another thread while parked: out of the watcher now, or its deadline queue would hold this
            // connection until the park's deadline. Readiness may have come first: the woken reader finds it closed.
            context.watcher.unpark(parked);
        }
        // Outside the lock: closing a channel waits for I/O blocked on it to notice.
        transport.close();
        ProtocolSession current = session;
        if (current != null) {
            current.closed();
        }
    }

    /** Whether a buffer is attached (for tests; exact only while no thread works on the connection). */
    public boolean holdsBuffers() {
        ConnectionOutput out = output;
        return input != null || (out != null && out.holdsBuffer())
                || (transport instanceof TlsTransport secure && secure.holdsBuffers());
    }

    @Override
    public long writeStartedNanos() {
        return transport.writeStartedNanos();
    }

    /**
     * On the watchdog's thread, which serves every connection: closes without delivering the listener's event, which
     * the writer delivers when its write fails ({@link #closeNow}).
     */
    @Override
    public void abortWrite() {
        LOG.log(Level.DEBUG, "connection {0}: write timed out, closing", id);
        close(null);
    }

    // ---- ConnectionInfo ----

    @Override
    public InetSocketAddress remoteAddress() {
        return transport.remoteAddress();
    }

    @Override
    public InetSocketAddress localAddress() {
        return transport.localAddress();
    }

    @Override
    public HttpVersion protocol() {
        ProtocolSession current = session;
        return current == null ? HttpVersion.HTTP_1_1 : current.version();
    }

    @Override
    public TlsInfo tls() {
        return transport.tls();
    }

    @Override
    public ConnectionState state() {
        return state;
    }

    @Override
    public String toString() {
        return "ServerConnection[" + id + " " + remoteAddress() + " " + protocol() + (tls() == null ? "" : " TLS") + " "
                + state + "]";
    }
}
