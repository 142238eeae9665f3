package dev.shuttle.server.core;

import dev.shuttle.server.ConnectionState;
import dev.shuttle.transport.ReadinessWatcher;
import dev.shuttle.transport.Transport;
import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SocketChannel;

/**
 * Who holds a connection's channel: its reader thread, the readiness watcher (parked, no thread), or other threads
 * writing to it (HTTP/2 handlers). The reader parks when it has nothing to read, unless writers write: then the last
 * of them parks it. A writer of a parked connection writes through the non-blocking channel as it is (plaintext) or
 * takes it back from the watcher first (TLS). A session that must act without new bytes asks for a reader
 * ({@link #requestReader}). Every field here is guarded by the state lock.
 *
 * <pre>
 *   reader runs --nothing to read, no writer--> parked --readable / deadline / shutdown--> reader runs
 *   reader runs --nothing to read, writers----> writers only --last endWrite--> parked
 *   parked --beginWrite (TLS), or a write that filled the socket--> writers only (IDLE)
 *   parked --requestReader--> reader runs
 * </pre>
 *
 * <p>A base class of {@link ServerConnection} rather than an object of its own: see {@link ConnectionReporting}.
 */
abstract class ParkGate extends ConnectionReporting implements ReadinessWatcher.Parkable {
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

    ParkGate(ServerContext context, long id) {
        super(context, id);
    }

    // ---- what the connection provides ----

    public abstract Transport transport();

    /** The session, or null before the protocol is known. */
    abstract ProtocolSession session();

    /** The state machine's step, under the held state lock; false when the connection is no longer in {@code from}. */
    abstract boolean transitionLocked(ConnectionState from, ConnectionState to);

    /** A new reader thread serves the connection from {@code from}. */
    abstract void serveOnNewThread(ConnectionState from);

    public abstract void closeNow();

    // ---- the reader ----

    /** The first park of a new connection, until its first bytes' deadline; false when it must close instead. */
    final boolean parkNew(long deadline) {
        stateLock.lock();
        try {
            readerRunning = false;
            return parkLocked(deadline);
        } finally {
            stateLock.unlock();
        }
    }

    /** The watcher handed the connection back: a reader thread owns it now. */
    final void handedBack() {
        stateLock.lock();
        try {
            ticket = null;
            readerRunning = true;
        } finally {
            stateLock.unlock();
        }
    }

    /**
     * The reader, its buffers given back, leaves: park, or, while another thread writes, leave the park to the last
     * writer. {@code fromIdle}: after the session went IDLE (the park is reported as PARKED), until the session's idle
     * timeout; otherwise the connection waits again in the state it had (NEW, PARKED) until the same deadline, or
     * {@code waitUntil} when that is not 0.
     *
     * @return false when the connection must close instead (shutdown began)
     */
    final boolean readerLeaves(boolean fromIdle, long waitUntil) {
        boolean parked;
        stateLock.lock();
        try {
            // Under the lock, as requestReader() looks: a session's deadline may shrink to now meanwhile.
            long deadline = fromIdle ? context.now() + session().idleTimeoutNanos()
                    : waitUntil != 0 ? waitUntil : parkDeadline;
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
     * Makes a reader look at the session now, from any thread, when the session must act without new bytes (HTTP/2
     * closing after its last stream). A parked connection is taken back from the watcher and served by a new reader
     * thread. Otherwise a reader runs or is starting, or a writer will park it: either computes its park deadline
     * under the state lock from the session, which is how the session asks them not to wait.
     */
    public final void requestReader() {
        ConnectionState from;
        stateLock.lock();
        try {
            if (ticket == null || state() == ConnectionState.CLOSED) {
                return;
            }
            ReadinessWatcher.Ticket parkedTicket = ticket;
            ticket = null;
            readerRunning = true;
            if (!context.watcher.unpark(parkedTicket)) {
                return; // readiness came first: a woken reader is starting
            }
            from = state();
        } finally {
            stateLock.unlock();
        }
        serveOnNewThread(from);
    }

    // ---- other writers ----

    /**
     * Called by a thread other than the reader before it writes (an HTTP/2 handler): takes the channel back from the
     * watcher if the connection is parked and its transport cannot write while parked, and keeps it from parking until
     * {@link #endWrite()}. A connection taken back this way has no reader; the last writer parks it again.
     *
     * @throws ClosedChannelException when the connection is closed
     */
    public final void beginWrite() throws IOException {
        stateLock.lock();
        try {
            if (state() == ConnectionState.CLOSED) {
                throw new ClosedChannelException();
            }
            writers++;
            if (ticket != null && !transport().writesWhileParked()) {
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
    public final void writeShared(byte[] bytes, int offset, int length) throws IOException {
        Transport current = transport();
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

    /**
     * After {@link #beginWrite()}: the last writer of a connection without a reader parks it, or closes it when the
     * park is refused (shutdown began) and nothing else would: no reader, no writer, no stay in the watcher.
     */
    public final void endWrite() {
        boolean refused = false;
        stateLock.lock();
        try {
            writers--;
            if (writers == 0 && parkWhenQuiet && !readerRunning && state() != ConnectionState.CLOSED) {
                // The session's idle timeout may be shorter now than when the reader parked (its streams ended).
                long idleDeadline = context.now() + session().idleTimeoutNanos();
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
            // Readiness came first: a reader thread is starting; it decides about parking.
            readerRunning = true;
        }
    }

    /**
     * Hands the channel to the watcher. IDLE becomes PARKED once the watcher took it; NEW and PARKED stay. A refused
     * park (the watcher is shutting down) leaves the state as it was and returns false, for the caller to close the
     * connection, unless its session still has work: then a thread goes on reading (it cannot park any more) until
     * the session is done.
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
            if (state() == ConnectionState.IDLE) { // a wake-up waits for this lock, so it finds the connection PARKED
                transitionLocked(ConnectionState.IDLE, ConnectionState.PARKED);
            }
            return true;
        }
        try {
            channel.configureBlocking(true);
        } catch (IOException e) {
            return false;
        }
        ProtocolSession current = session();
        if (current != null && current.hasUnfinishedWork()) {
            readerRunning = true;
            serveOnNewThread(state());
            return true;
        }
        return false;
    }

    /** Closing: the stay in the watcher, which the closer ends (null when not parked). */
    final ReadinessWatcher.Ticket takeTicketLocked() {
        assert stateLock.isHeldByCurrentThread();
        ReadinessWatcher.Ticket parked = ticket;
        ticket = null;
        return parked;
    }

    /** The current stay in the watcher, null when not parked (for tests). */
    public final ReadinessWatcher.Ticket parkTicket() {
        stateLock.lock();
        try {
            return ticket;
        } finally {
            stateLock.unlock();
        }
    }
}
