package dev.shuttle.server.io;

import dev.shuttle.transport.Transport;
import dev.shuttle.wire.http1.Http1Source;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The read side of a server connection as the protocol code sees it: a pooled buffer of received application bytes
 * (decrypted, for TLS), filled from the connection's {@link Transport}. Two timeout modes: a deadline for a whole
 * phase (a request head: the slowloris defence), or an inactivity bound per read (bodies). {@link #fillNow()} never
 * blocks.
 *
 * <p>Ownership: made with a pooled buffer when a thread starts working on the connection, and dropped, the buffer
 * detached, when it parks or closes (a parked connection keeps no input); everything here is owned by the connection's
 * virtual thread. The bytes read are counted in the connection's {@link ByteCounts}, which outlive this.
 */
public final class ConnectionInput implements Http1Source {
    private static final long NO_DEADLINE = Long.MIN_VALUE;

    private final LongSupplier nanoClock;
    private final ByteCounts counts;
    /** Plaintext first; the TLS transport once a handshake has run. Owned by the connection thread. */
    private Transport transport;
    /** Owned by the connection thread; null once detached. Read mode. */
    private ByteBuffer buffer;
    /** Owned by the connection thread: absolute deadline in nanoTime, or {@link #NO_DEADLINE}. */
    private long deadlineNanos = NO_DEADLINE;
    /** Owned by the connection thread: per-read timeout, used when there is no deadline. */
    private int perReadTimeoutMillis;

    /** An input reading through {@code transport} into {@code readBuffer} (from the pool), starting empty. */
    public ConnectionInput(Transport transport, LongSupplier nanoClock, ByteCounts counts, ByteBuffer readBuffer) {
        this.transport = transport;
        this.nanoClock = nanoClock;
        this.counts = counts;
        readBuffer.clear().flip(); // read mode, nothing to read
        this.buffer = readBuffer;
    }

    /** Reads from now on go through {@code transport} (the TLS one after a handshake). */
    public void use(Transport transport) {
        this.transport = transport;
    }

    /**
     * Gives the buffer back, for the pool; only when it holds no unconsumed bytes, or when the connection is closing.
     * The input is of no use afterwards.
     */
    public ByteBuffer detach() {
        ByteBuffer detached = buffer;
        buffer = null;
        return detached;
    }

    /** Reads from now on must complete the current phase by {@code deadline} (nanoTime). */
    public void useDeadline(long deadline) {
        this.deadlineNanos = deadline;
    }

    /** Reads from now on may each wait up to {@code millis} for bytes. */
    public void usePerReadTimeout(long millis) {
        this.deadlineNanos = NO_DEADLINE;
        this.perReadTimeoutMillis = (int) Math.max(1, Math.min(Integer.MAX_VALUE, millis));
    }

    @Override
    public ByteBuffer buffer() {
        return buffer;
    }

    /**
     * Puts {@code received} (read mode) back in front of the unread bytes, as if this input had read it: bytes another
     * thread read off the connection for it (the peer-close watch, which met the next request).
     */
    public void unread(ByteBuffer received) {
        int have = buffer.remaining();
        int count = received.remaining();
        if (have + count > buffer.capacity()) {
            throw new IllegalStateException("no room for " + count + " bytes before " + have + " unread ones");
        }
        buffer.compact(); // write mode: the unread bytes at the front
        byte[] array = buffer.array();
        int base = buffer.arrayOffset();
        System.arraycopy(array, base, array, base + count, have);
        received.get(array, base, count);
        buffer.position(have + count).flip();
        counts.countRead(count);
    }

    /** Whether bytes wait here or in the transport (a TLS record already received): then the connection must not park. */
    public boolean hasBufferedInput() {
        return (buffer != null && buffer.hasRemaining()) || transport.hasBufferedInput();
    }

    @Override
    public int fill() throws IOException {
        makeRoom();
        int timeout = timeoutMillis();
        return append(true, timeout);
    }

    /**
     * Appends the bytes a readiness wake-up announced on a plaintext socket shared with writers, in one read where
     * {@link #fillNow()} first asks how many are waiting: readiness means bytes or the end of the stream, so the read
     * returns at once.
     */
    public int fillReady() throws IOException {
        makeRoom();
        return append(true, 0);
    }

    /**
     * Readiness, yet nothing to read, on a transport whose non-blocking read cannot see the end of the stream: a 1 ms
     * blocking read tells a peer that closed (-1) from a spurious wake-up or a record without application bytes (0).
     */
    public int tellEndFromNothing() throws IOException {
        usePerReadTimeout(1);
        try {
            return fill();
        } catch (SocketTimeoutException e) {
            return 0;
        }
    }

    /** Appends application bytes that already arrived, without blocking. */
    @Override
    public int fillNow() throws IOException {
        makeRoom();
        return append(false, 0);
    }

    private int append(boolean blocking, int timeoutMillis) throws IOException {
        int unread = buffer.position();
        buffer.position(buffer.limit()).limit(buffer.capacity()); // write mode over the free space
        int n;
        try {
            n = blocking ? transport.read(buffer, timeoutMillis) : transport.readNow(buffer);
        } finally {
            buffer.limit(buffer.position()).position(unread); // back to read mode, with what was read appended
        }
        if (n > 0) {
            counts.countRead(n);
        }
        return n;
    }

    private void makeRoom() throws IOException {
        if (buffer == null) {
            throw new IllegalStateException("no read buffer attached");
        }
        if (buffer.limit() == buffer.capacity()) {
            buffer.compact().flip();
            if (buffer.limit() == buffer.capacity()) {
                // The codecs consume what they are given, so a full buffer means a caller stopped consuming.
                throw new IOException("read buffer full: " + buffer.capacity() + " unconsumed bytes");
            }
        }
    }

    private int timeoutMillis() throws SocketTimeoutException {
        if (deadlineNanos == NO_DEADLINE) {
            return perReadTimeoutMillis;
        }
        long remaining = deadlineNanos - nanoClock.getAsLong();
        if (remaining <= 0) {
            throw new SocketTimeoutException("read deadline passed");
        }
        // Round up: a 0 would mean "no timeout".
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, TimeUnit.NANOSECONDS.toMillis(remaining + 999_999)));
    }
}
