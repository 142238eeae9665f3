package dev.shuttle.server.core;

import dev.shuttle.server.ConnectionInfo;
import dev.shuttle.server.ConnectionState;
import dev.shuttle.server.GoAwayEvent;
import dev.shuttle.server.io.ByteCounts;
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
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import dev.shuttle.wire.http2.Http2Preface;
import javax.net.ssl.SSLException;

/**
 * One server connection, whatever its protocol: its state machine ({@link ConnectionState}), its transport (plaintext,
 * or TLS after a handshake), its buffers, and its stays in the readiness watcher. On its first bytes it detects what
 * the client speaks (a TLS record on a TLS server; otherwise HTTP/1.x) and hands over to a {@link ProtocolSession}.
 *
 * <p>Threads. While NEW or PARKED the connection has no thread: the {@link ReadinessWatcher} holds its channel. When
 * the watcher hands it back ({@link #onWake}), a fresh virtual thread ({@code shuttle-conn-<id>}) takes over: it owns
 * the channel, the buffers and the session until it parks the connection again or closes it; handlers run on it
 * (HTTP/1). The watcher thread itself only starts that thread, so no listener and no connection code ever runs on it.
 * Any thread may close the connection (shutdown, the write watchdog): the state lock makes the CLOSED transition
 * happen once.
 *
 * <p>Listener events are queued under the state lock, in transition order, and delivered outside it, one at a time,
 * by whichever thread working on the connection finds the queue undelivered, as long as it holds no lock of the
 * connection or its session ({@link ProtocolSession#lockedByCurrentThread}): a thread inside such a lock leaves them to
 * be delivered once it lets go. The write watchdog closes a connection without delivering: the writer it unblocks
 * does. A slow listener delays only this connection's own threads.
 *
 * <p>Buffers: a read buffer is borrowed from the server's pool when the thread starts, a write buffer when it first
 * writes (given back when the connection goes idle between requests), and both are returned before parking; a TLS
 * transport returns its record buffers too. A parked connection holds this object, its transport (with the channel;
 * for TLS, the {@code SSLEngine}), its stay in the watcher, and its session's small state.
 */
public final class ServerConnection
        implements ConnectionInfo, ReadinessWatcher.Parkable, WriteWatchdog.Watched, ByteCounts {
    private static final System.Logger LOG = System.getLogger(ServerConnection.class.getName());
    /** TLS record type of a handshake message: the first byte a TLS client sends. */
    private static final int TLS_HANDSHAKE_RECORD = 0x16;
    /** Go's answer, word for word, so people searching for it find the explanation. */
    private static final String PLAINTEXT_ON_TLS_TEXT = "Client sent an HTTP request to an HTTPS server.\n";
    private static final byte[] PLAINTEXT_ON_TLS = ("HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain\r\n"
            + "Content-Length: " + PLAINTEXT_ON_TLS_TEXT.length() + "\r\nConnection: close\r\n\r\n"
            + PLAINTEXT_ON_TLS_TEXT).getBytes(StandardCharsets.US_ASCII);

    /** Why the watcher handed a parked connection back, when it was not bytes arriving. */
    public enum End { DEADLINE, SHUTDOWN, FAILED }

    // Memory: a parked connection keeps this object, so it keeps no field it can recompute. The channel, both
    // addresses and the TLS details are the transport's; the protocol is the session's.
    private final ServerContext context;
    private final long id;
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
    private ConnectionOutput output;
    /** Application bytes received: written by the connection's current thread (through its input), read by any. */
    private volatile long bytesRead;
    /** Application bytes sent: written by one writer at a time (its output, HTTP/2's frame writer), read by any. */
    private volatile long bytesWritten;
    /**
     * Guarded by stateLock: when the current or last park ends (watcher clock); with {@link #parkWhenQuiet}, when the
     * park the last writer will make ends.
     */
    private long parkDeadline;
    /** Guarded by stateLock: the current stay in the watcher, null while the connection is not parked. */
    private ReadinessWatcher.Ticket ticket;
    /** Guarded by stateLock: threads other than the reader writing right now (HTTP/2 handlers). */
    private int writers;
    /** Guarded by stateLock: a connection thread is reading (or about to: the watcher handed it back). */
    private boolean readerRunning = true;
    /** Guarded by stateLock: the reader left while writers wrote; the last of them parks, until parkDeadline. */
    private boolean parkWhenQuiet;

    private final ReentrantLock stateLock = new ReentrantLock();
    /** Guarded by stateLock for writes; volatile so {@link #state()} can read it without the lock. */
    private volatile ConnectionState state;
    /** Written only by the connection's current thread; read by any. */
    private volatile long requestCount;
    /** Guarded by stateLock: listener events not yet delivered, and whether a thread is delivering them. */
    private ArrayDeque<Runnable> events;
    private boolean dispatching;

    ServerConnection(ServerContext context, long id, SocketChannel channel) throws IOException {
        this.context = context;
        this.id = id;
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
        boolean parked;
        stateLock.lock();
        try {
            readerRunning = false;
            parked = parkLocked(acceptedNanos + firstBytesWithin);
        } finally {
            stateLock.unlock();
        }
        if (!parked) {
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
        Thread.ofVirtual().name("shuttle-conn-" + id).start(() -> woken(reason));
    }

    // ---- connection thread ----

    private void woken(ReadinessWatcher.Wake reason) {
        stateLock.lock();
        try {
            ticket = null;
            readerRunning = true;
        } finally {
            stateLock.unlock();
        }
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
                Established established = establish();
                if (established != Established.SERVE) {
                    parked = established == Established.PARKED;
                    return;
                }
                headDeadline = (from == ConnectionState.NEW ? acceptedNanos : context.now())
                        + context.headerReadNanos;
            } else {
                int n = input.fillNow();
                if (n == 0 && transport.isSharedWithWriters()) {
                    n = tellEndFromNothing();
                }
                if (n < 0) {
                    return; // the peer closed an idle connection
                }
                if (n == 0) {
                    // Readiness without application bytes (a TLS record such as a key update, or nothing at all):
                    // wait again, in the same state and until the same deadline.
                    parked = readerIdle(false);
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

    /**
     * Readiness, yet nothing waits to be read, on a transport whose non-blocking read cannot see the end of the stream
     * ({@link Transport#shareWithWriters()}): a 1 ms blocking read tells a peer that closed (-1) from a spurious
     * wake-up or a record without application bytes (0). Only this rare path pays for it.
     */
    private int tellEndFromNothing() throws IOException {
        input.usePerReadTimeout(1);
        try {
            return input.fill();
        } catch (SocketTimeoutException e) {
            return 0;
        }
    }

    /** Runs the session from {@code from} (NEW, PARKED or IDLE) until it parks the connection or closes it. */
    private void serve(long headDeadline, ConnectionState from) {
        boolean parked = false;
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
                parked = next == ProtocolSession.Next.PARK && readerIdle(true);
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
        }
    }

    private enum Established { SERVE, PARKED, CLOSE }

    /**
     * The first bytes of a new connection arrived: run the TLS handshake when this is a TLS server, tell HTTP/2's
     * preface from HTTP/1.x, and pick the protocol session. SERVE: a request's bytes are buffered; PARKED: waiting
     * again (a TLS client that has not sent its request yet); CLOSE: the connection must close.
     */
    private Established establish() throws IOException {
        int n = input.fillNow();
        if (n < 0) {
            return Established.CLOSE;
        }
        if (n == 0) {
            return readerIdle(false) ? Established.PARKED : Established.CLOSE;
        }
        String applicationProtocol = null;
        if (context.tls != null) {
            if (!handshake()) {
                return Established.CLOSE;
            }
            applicationProtocol = transport.tls().applicationProtocol();
            if (!input.buffer().hasRemaining()) {
                int more = input.fillNow();
                if (more < 0) {
                    return Established.CLOSE;
                }
                if (more == 0) {
                    // Handshaken but no request yet (TLS 1.3 clients send it right behind their Finished; others
                    // after a round trip): park, still NEW, until the first request byte or the header deadline.
                    useSession(applicationProtocol);
                    parkDeadline = context.now() + context.headerReadNanos;
                    return readerIdle(false) ? Established.PARKED : Established.CLOSE;
                }
            }
        } else if (context.sessions.cleartextHttp2() && startsWithPreface()) {
            applicationProtocol = "h2";
        }
        useSession(applicationProtocol);
        return Established.SERVE;
    }

    /** Creates the protocol session for what ALPN or the preface chose, and says which protocol it speaks. */
    private void useSession(String applicationProtocol) {
        session = context.sessions.create(this, applicationProtocol);
    }

    /**
     * Whether the bytes received so far begin HTTP/2's client preface (prior knowledge). Reads on, within the header
     * deadline, while they match but are not all there yet; consumes nothing.
     */
    private boolean startsWithPreface() throws IOException {
        input.useDeadline(acceptedNanos + context.headerReadNanos);
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
    private boolean handshake() throws IOException {
        ByteBuffer received = input.buffer();
        if ((received.get(received.position()) & 0xff) != TLS_HANDSHAKE_RECORD) {
            if (Character.isLetter(received.get(received.position()))) {
                LOG.log(Level.DEBUG, "connection {0}: plaintext HTTP on the TLS port", id);
                transport.write(PLAINTEXT_ON_TLS, 0, PLAINTEXT_ON_TLS.length);
            }
            return false;
        }
        TlsTransport secure = TlsTransport.server(channel(), context.buffers, context.nanoClock, context.tls,
                context.sessions::selectApplicationProtocol);
        secure.prepend(received); // the ClientHello's first bytes, read while detecting
        received.position(received.limit());
        int timeoutMillis = (int) Math.max(1, TimeUnit.NANOSECONDS.toMillis(
                acceptedNanos + context.tlsHandshakeNanos - context.now()));
        TlsInfo info;
        try {
            info = secure.handshake(timeoutMillis);
        } catch (SocketTimeoutException e) {
            LOG.log(Level.DEBUG, "connection {0}: TLS handshake timed out", id);
            return false;
        } catch (SSLException e) {
            // One short line: scanners and misconfigured clients fail handshakes all day; a stack trace per
            // failure would drown the log, and nothing else is affected.
            LOG.log(Level.INFO, "TLS handshake from {0} failed: {1}", remoteAddress(), e.getMessage());
            return false;
        }
        transport = secure; // from now on tls() reports the handshake
        input.use(secure);
        output.use(secure);
        if (context.registry.hasListener()) {
            dispatch(() -> context.registry.notifyTlsHandshake(this, info));
        }
        return true;
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

    // ---- parking: the gate between the connection's reader and other writers ----

    /**
     * The reading thread has nothing to read: give its buffers back and park, or, while another thread writes (an
     * HTTP/2 handler), leave the park to the last writer. {@code fromIdle}: after {@link #toIdle()} (a park from IDLE
     * is reported as PARKED); otherwise the connection waits again in the state it had (NEW, PARKED) until the same
     * deadline.
     *
     * @return false when the connection was closed instead (shutdown began)
     */
    private boolean readerIdle(boolean fromIdle) throws IOException {
        if (input.hasBufferedInput()) {
            throw new IllegalStateException("parking with input buffered");
        }
        releaseBuffers();
        boolean parked;
        stateLock.lock();
        try {
            // Under the lock, as requestReader() looks: a session's deadline may shrink to now meanwhile.
            long deadline = fromIdle ? context.now() + session.idleTimeoutNanos() : parkDeadline;
            readerRunning = false;
            if (writers > 0) {
                parkWhenQuiet = true;
                parkDeadline = deadline;
                parked = true;
            } else {
                parked = parkLocked(deadline);
            }
        } finally {
            stateLock.unlock();
        }
        deliverEvents();
        return parked;
    }

    /**
     * Called by a thread other than the reader before it writes (an HTTP/2 handler): takes the channel back from the
     * watcher if the connection is parked, and keeps it from parking until {@link #endWrite()}. A connection woken
     * this way has no reader; the last writer parks it again.
     *
     * @throws ClosedChannelException when the connection is closed
     */
    public void beginWrite() throws IOException {
        stateLock.lock();
        try {
            if (state == ConnectionState.CLOSED) {
                throw new ClosedChannelException();
            }
            writers++;
            if (ticket != null && !transport.writesWhileParked()) {
                takeBackLocked();
            }
        } finally {
            stateLock.unlock();
        }
        deliverEvents();
    }

    /**
     * A writer's bytes (between {@link #beginWrite()} and {@link #endWrite()}). On a plaintext connection parked in
     * the watcher, they go out through the non-blocking channel without taking it back: a small response to a
     * parked HTTP/2 connection costs no wake-up of the watcher and no state change. Only when the socket's buffer is
     * full is the channel taken back, and the rest written blocking.
     */
    public void writeShared(byte[] bytes, int offset, int length) throws IOException {
        Transport current = transport;
        if (!current.writesWhileParked()) {
            current.write(bytes, offset, length);
            return;
        }
        int written = current.writeParked(bytes, offset, length);
        if (written < length) {
            stateLock.lock();
            try {
                if (ticket != null) {
                    takeBackLocked();
                }
            } finally {
                stateLock.unlock();
            }
            // The take-back's event waits for endWrite(): the writer's lock is held here. In blocking mode now (taken
            // back, or a reader has it): the socket adaptor writes the rest.
            current.write(bytes, offset + written, length - written);
        }
    }

    /** Takes the parked channel back from the watcher for a writer; blocking mode afterwards. */
    private void takeBackLocked() {
        assert stateLock.isHeldByCurrentThread();
        ReadinessWatcher.Ticket parkedTicket = ticket;
        ticket = null;
        if (context.watcher.unpark(parkedTicket)) {
            // No reader: the connection stays without one, IDLE while written to, parked again after, until the
            // same deadline (still in parkDeadline).
            parkWhenQuiet = true;
            transitionLocked(ConnectionState.PARKED, ConnectionState.IDLE);
        } else {
            // Readiness came first: a reader thread is starting (woken()); it decides about parking.
            readerRunning = true;
        }
    }

    /**
     * Makes a reader look at the session now, from any thread, when the session must act without new bytes (HTTP/2
     * closing after its last stream). A parked connection is taken back from the watcher and served by a new reader
     * thread. Otherwise a reader runs or is starting, or a writer will park it: either computes its park deadline
     * under the state lock from the session, which is how the session asks them not to wait.
     */
    public void requestReader() {
        ConnectionState from;
        stateLock.lock();
        try {
            if (ticket == null || state == ConnectionState.CLOSED) {
                return;
            }
            ReadinessWatcher.Ticket parkedTicket = ticket;
            ticket = null;
            readerRunning = true;
            if (!context.watcher.unpark(parkedTicket)) {
                return; // readiness came first: woken() is starting a reader
            }
            from = state;
        } finally {
            stateLock.unlock();
        }
        Thread.ofVirtual().name("shuttle-conn-" + id).start(() -> serve(context.now() + context.headerReadNanos, from));
    }

    /**
     * After {@link #beginWrite()}: the last writer of a connection without a reader parks it, or closes it when the
     * park is refused (shutdown began) and nothing else would: no reader, no writer, no stay in the watcher.
     */
    public void endWrite() {
        boolean refused = false;
        stateLock.lock();
        try {
            writers--;
            if (writers == 0 && parkWhenQuiet && !readerRunning && state != ConnectionState.CLOSED) {
                // The session's idle timeout may be shorter now than when the reader parked (its streams ended).
                long idleDeadline = context.now() + session.idleTimeoutNanos();
                refused = !parkLocked(idleDeadline - parkDeadline < 0 ? idleDeadline : parkDeadline);
            }
        } finally {
            stateLock.unlock();
        }
        if (refused) {
            closeNow();
        } else {
            deliverEvents();
        }
    }

    /**
     * Hands the channel to the watcher. IDLE becomes PARKED once the watcher took it; NEW and PARKED stay. A refused
     * park (the watcher is shutting down) leaves the state as it was and returns false, for the caller to close the
     * connection, unless its session still serves streams: then a thread goes on reading (it cannot park any more)
     * until they finish.
     */
    private boolean parkLocked(long deadline) {
        assert stateLock.isHeldByCurrentThread();
        parkWhenQuiet = false;
        parkDeadline = deadline;
        SocketChannel channel = channel();
        try {
            channel.configureBlocking(false);
        } catch (IOException e) {
            return false;
        }
        ticket = context.watcher.park(this, deadline);
        if (ticket != null) {
            if (state == ConnectionState.IDLE) { // a wake-up waits for this lock, so it finds the connection PARKED
                transitionLocked(ConnectionState.IDLE, ConnectionState.PARKED);
            }
            return true;
        }
        try {
            channel.configureBlocking(true);
        } catch (IOException e) {
            return false;
        }
        if (session != null && session.hasUnfinishedWork()) {
            readerRunning = true;
            ConnectionState from = state;
            Thread.ofVirtual().name("shuttle-conn-" + id).start(() -> serve(context.now() + context.headerReadNanos,
                    from));
            return true;
        }
        return false;
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

    /** The reading side; only while this thread works on the connection (null once it parked or closed). */
    public ConnectionInput input() {
        return input;
    }

    /** The writing side; only while this thread works on the connection (null once it parked or closed). */
    public ConnectionOutput output() {
        return output;
    }

    @Override
    public void countRead(int n) {
        bytesRead += n;
    }

    /** Also called by HTTP/2's frame writer, under its write lock, for the frames it writes to the transport. */
    @Override
    public void countWritten(int n) {
        bytesWritten += n;
    }

    public Transport transport() {
        return transport;
    }

    public void requestStarted() {
        requestCount++;
        context.requestStarted();
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
    private boolean transitionLocked(ConnectionState from, ConnectionState to) {
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

    private void queueStateEventLocked(ConnectionState from, ConnectionState to) {
        if (context.registry.hasListener()) {
            queueLocked(() -> context.registry.notifyListener(this, from, to));
        }
    }

    private void queueLocked(Runnable event) {
        if (events == null) {
            events = new ArrayDeque<>(4);
        }
        events.add(event);
    }

    private void dispatch(Runnable event) {
        stateLock.lock();
        try {
            queueLocked(event);
        } finally {
            stateLock.unlock();
        }
        deliverEvents();
    }

    /**
     * Delivers queued events one at a time, in order; one deliverer at a time. Not while the calling thread holds the
     * state lock or a lock of the session: whoever holds it calls this again once it lets go (an outer frame of this
     * class, the HTTP/2 writer's {@code endWrite}, the goodbye's last unlock through {@link #deliverQueuedEvents}).
     */
    private void deliverEvents() {
        if (lockedByCurrentThread()) {
            return;
        }
        while (true) {
            Runnable event;
            stateLock.lock();
            try {
                if (dispatching || events == null || events.isEmpty()) {
                    return;
                }
                dispatching = true;
                event = events.poll();
            } finally {
                stateLock.unlock();
            }
            try {
                event.run();
            } finally {
                stateLock.lock();
                try {
                    dispatching = false;
                } finally {
                    stateLock.unlock();
                }
            }
        }
    }

    /** Whether the calling thread holds the state lock or a lock of the session: listener events wait then. */
    public boolean lockedByCurrentThread() {
        ProtocolSession current = session;
        return stateLock.isHeldByCurrentThread() || (current != null && current.lockedByCurrentThread());
    }

    /**
     * Queues the listener's GOAWAY event, in order with the state transitions (none once CLOSED): the caller, which
     * may hold a lock of its session, delivers it with {@link #deliverQueuedEvents()} once it let go.
     */
    public void queueGoAway(GoAwayEvent goAway) {
        if (!context.registry.hasListener()) {
            return;
        }
        stateLock.lock();
        try {
            if (state != ConnectionState.CLOSED) {
                queueLocked(() -> context.registry.notifyGoAway(this, goAway));
            }
        } finally {
            stateLock.unlock();
        }
    }

    /**
     * Delivers the listener events queued so far, on this thread, for a session that let go of its lock (while it
     * holds one, events wait: {@link #lockedByCurrentThread}).
     */
    public void deliverQueuedEvents() {
        deliverEvents();
    }

    /**
     * Closes after an error answer (HTTP/1 error response, HTTP/2 GOAWAY) without destroying it: flush, half-close
     * (the client sees EOF right after the answer), then read and discard what the client still sends for up to
     * {@code maxNanos} / {@code maxBytes}. Closing with unread bytes in the socket would send a TCP reset, which makes
     * the client's kernel drop the answer before its application reads it. The connection's reading thread only.
     */
    public void closeLingering(long maxNanos, long maxBytes) {
        try {
            output.flush();
            transport.shutdownOutput();
            input.useDeadline(context.now() + maxNanos);
            long discarded = 0;
            while (discarded < maxBytes) {
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
            closeNow();
        }
    }

    /**
     * Closes the connection now (idempotent); reports CLOSED once, and delivers what waits for the listener, so a
     * thread whose connection was closed under it (by the write watchdog) reports that close when it notices.
     */
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
     * Shutdown: closes the connection if it sits between requests holding a thread (parking off). An HTTP/2
     * connection is IDLE between reads while its streams' handlers still run: those finish first (the session closes
     * the connection after the last one, having sent GOAWAY).
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
            parked = ticket;
            ticket = null;
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

    /** The current stay in the watcher, null when not parked (for tests). */
    public ReadinessWatcher.Ticket parkTicket() {
        stateLock.lock();
        try {
            return ticket;
        } finally {
            stateLock.unlock();
        }
    }

    /** Bytes in the socket not read yet (for tests staging a request between two keep-alive turns). */
    public int bytesInSocket() throws IOException {
        return channel().socket().getInputStream().available();
    }

    /**
     * Whether a buffer is attached (for tests). Exact only while the connection is parked or idle, when no thread is
     * changing it.
     */
    public boolean holdsBuffers() {
        ConnectionOutput out = output;
        return input != null || (out != null && out.holdsBuffer())
                || (transport instanceof TlsTransport secure && secure.holdsBuffers());
    }

    public boolean draining() {
        return context.draining();
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
    public long id() {
        return id;
    }

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
    public long bytesRead() {
        return bytesRead;
    }

    @Override
    public long bytesWritten() {
        return bytesWritten;
    }

    @Override
    public long requestCount() {
        return requestCount;
    }

    @Override
    public String toString() {
        return "ServerConnection[" + id + " " + remoteAddress() + " " + protocol() + (tls() == null ? "" : " TLS") + " "
                + state + "]";
    }
}
