package dev.shuttle.server.http1;

import dev.shuttle.server.Cancellation;
import dev.shuttle.server.ClientGoneException;
import dev.shuttle.server.core.ServerConnection;
import dev.shuttle.server.core.ServerContext;
import dev.shuttle.server.io.WriteGate;
import dev.shuttle.transport.ReadinessWatcher;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Sees an HTTP/1.1 client close its connection while the handler runs, and fires the request's {@link Cancellation}:
 * Go's background read, without a thread. Once the request body has been read to its end, nothing the client sends
 * belongs to this exchange, so the channel can wait in the server's readiness watcher while the handler works; the
 * handler's writes take it back around each socket write ({@link WriteGate}). A wake is looked at by a short-lived
 * virtual thread with one non-blocking read: end of stream (or a reset) fires the signal; bytes are the next
 * (pipelined) request, kept for the connection's input, and end the watch (the client is alive); nothing (a TLS
 * record without data) parks the channel again.
 *
 * <p>States, guarded by {@link #lock}: IDLE (the connection thread has the channel), PARKED (the watcher has it),
 * CHECKING (a wake's thread has it). Only the connection thread arms; it waits for IDLE before it writes or leaves.
 */
final class PeerCloseWatch implements ReadinessWatcher.Parkable, WriteGate {
    private static final System.Logger LOG = System.getLogger(PeerCloseWatch.class.getName());
    /** The park lasts until taken back; a deadline is required, so one no handler reaches. */
    private static final long PARK_NANOS = TimeUnit.DAYS.toNanos(365);

    private enum State { IDLE, PARKED, CHECKING }

    private final ServerConnection connection;
    private final ServerContext context;
    private final Cancellation cancellation;
    /** The thread that owns the connection (its handler's), the only one that arms. */
    private final Thread owner;

    private final ReentrantLock lock = new ReentrantLock();
    /** Signalled at every change of state. */
    private final Condition changed = lock.newCondition();
    /** Guarded by lock. */
    private State state = State.IDLE;
    /** Guarded by lock: the current park, while PARKED. */
    private ReadinessWatcher.Ticket ticket;
    /** Guarded by lock: no more parks (the handler returned, the client sent more, the watcher closes). */
    private boolean stopped;
    /** Guarded by lock: bytes of the next request a check read, in read mode, for the connection's input. */
    private ByteBuffer received;
    /** Guarded by lock: the connection thread waits for the channel, so a check must not park it again. */
    private boolean takingBack;

    PeerCloseWatch(ServerConnection connection, Cancellation cancellation, Thread owner) {
        this.connection = connection;
        this.context = connection.context();
        this.cancellation = cancellation;
        this.owner = owner;
    }

    Cancellation cancellation() {
        return cancellation;
    }

    @Override
    public SocketChannel channel() {
        return connection.channel();
    }

    /**
     * Starts watching, when called on the connection's thread with nothing of the client's unread: the request body
     * ended and no further byte is buffered (else the client is evidently alive, and those bytes must not be skipped).
     */
    void arm() {
        if (Thread.currentThread() != owner || cancellation.isCancelled()) {
            return;
        }
        boolean clientSentMore = connection.input().hasBufferedInput();
        lock.lock();
        try {
            if (clientSentMore) {
                stopped = true; // the channel is the owner's (IDLE): nothing to take back, and nothing to drop
                return;
            }
            if (stopped || state != State.IDLE) {
                return;
            }
            park();
        } finally {
            lock.unlock();
        }
    }

    /** Hands the channel to the watcher; the caller has it (IDLE or CHECKING) and holds the lock. */
    private void park() {
        assert lock.isHeldByCurrentThread();
        try {
            channel().configureBlocking(false);
        } catch (IOException e) {
            stopped = true;
            return;
        }
        state = State.PARKED;
        ticket = context.watcher().park(this, context.now() + PARK_NANOS);
        if (ticket == null) { // the watcher is shutting down
            state = State.IDLE;
            stopped = true;
            try {
                channel().configureBlocking(true);
            } catch (IOException e) {
                cancellation.cancel(new ClientGoneException("the connection failed", e));
            }
            changed.signalAll();
        }
    }

    @Override
    public void beforeWrite() throws IOException {
        takeBack();
    }

    @Override
    public void afterWrite() {
        arm();
    }

    @Override
    public void writeFailed(IOException failure) {
        cancellation.cancel(failure);
    }

    /**
     * The handler is done: stops watching and takes the channel back.
     *
     * @return bytes of the next request a check read, or null; the caller gives them to the input, then the buffer
     *         to the pool
     */
    ByteBuffer stop() {
        lock.lock();
        try {
            stopped = true;
        } finally {
            lock.unlock();
        }
        takeBack();
        lock.lock();
        try {
            ByteBuffer bytes = received;
            received = null;
            return bytes;
        } finally {
            lock.unlock();
        }
    }

    /** Waits until the connection thread has the channel again (blocking mode, no reader). */
    private void takeBack() {
        lock.lock();
        try {
            takingBack = true;
            while (state != State.IDLE) {
                if (state == State.CHECKING) {
                    changed.awaitUninterruptibly(); // one non-blocking read away
                    continue;
                }
                ReadinessWatcher.Ticket parked = ticket;
                boolean back;
                lock.unlock();
                try {
                    back = context.watcher().unpark(parked); // blocks until the watcher lets go: not under the lock
                } finally {
                    lock.lock();
                }
                if (back) {
                    state = State.IDLE;
                    ticket = null;
                } else if (state == State.PARKED && ticket == parked) {
                    changed.awaitUninterruptibly(); // handed to onWake, which has not run yet
                }
            }
        } finally {
            takingBack = false;
            lock.unlock();
        }
    }

    /** On the watcher thread: the channel is back, blocking. Anything but a flag goes to a virtual thread. */
    @Override
    public void onWake(ReadinessWatcher.Wake reason) {
        lock.lock();
        try {
            state = State.CHECKING;
            ticket = null;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        switch (reason) {
            case READABLE -> Thread.ofVirtual().name("shuttle-peer-watch-" + connection.id()).start(this::check);
            case FAILED -> settle(new ClientGoneException("the connection closed"), null, true);
            case DEADLINE, SHUTDOWN -> settle(null, null, true);
        }
    }

    /** One non-blocking read: end of stream fires the signal, bytes are the next request, nothing parks again. */
    private void check() {
        ByteBuffer buffer = context.buffers.acquire();
        int n;
        try {
            n = connection.transport().readNow(buffer);
        } catch (IOException e) {
            context.buffers.release(buffer);
            settle(new ClientGoneException("the client reset the connection", e), null, true);
            return;
        }
        if (n < 0) {
            context.buffers.release(buffer);
            settle(new ClientGoneException("the client closed the connection"), null, true);
        } else if (n > 0) {
            LOG.log(Level.TRACE, "connection {0}: the next request arrived while the handler ran", connection.id());
            settle(null, buffer.flip(), true);
        } else {
            context.buffers.release(buffer);
            if (connection.transport().hasBufferedInput()) {
                settle(null, null, true); // decrypted bytes wait in the transport: the input reads them later
            } else {
                settle(null, null, false);
            }
        }
    }

    private void settle(IOException gone, ByteBuffer bytes, boolean stop) {
        if (gone != null) {
            cancellation.cancel(gone);
        }
        lock.lock();
        try {
            if (bytes != null) {
                received = bytes;
            }
            if (stop || gone != null) {
                stopped = true;
            }
            state = State.IDLE;
            if (!stopped && !takingBack) {
                park(); // the check owns the channel: it may hand it straight back to the watcher
            }
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }
}
