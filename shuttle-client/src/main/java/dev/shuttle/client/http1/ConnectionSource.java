package dev.shuttle.client.http1;

import dev.shuttle.client.HttpTimeoutException;
import dev.shuttle.client.internal.Deadline;
import dev.shuttle.transport.BufferPool;
import dev.shuttle.transport.Transport;
import dev.shuttle.wire.http1.Http1Source;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.util.function.LongSupplier;

/**
 * The read side of a client connection for the codec: a pooled buffer of received application bytes (decrypted, for
 * TLS) and blocking or non-blocking ways to receive more from the {@link Transport}, with the read-idle timeout and an
 * optional deadline applied to each blocking read.
 *
 * <p>Owned by whichever thread owns the connection's lease at the moment: the exchange, then the body's reader
 * (under the body's lock), then a background drain. The buffer is borrowed while the connection is in use and given
 * back when it goes idle, so an idle connection holds none.
 */
public final class ConnectionSource implements Http1Source {
    private final Transport transport;
    private final BufferPool buffers;
    private final LongSupplier clock;
    private final ResponseTurns turns;

    /** Null while idle. */
    private ByteBuffer buffer;
    /** 0 = none. */
    private int idleTimeoutMillis;
    private long deadline = Deadline.NONE;
    private HttpTimeoutException.Kind deadlineKind = HttpTimeoutException.Kind.CALL;
    private long bytesReceived;

    ConnectionSource(Transport transport, BufferPool buffers, LongSupplier clock, ResponseTurns.Turn turn) {
        this.transport = transport;
        this.buffers = buffers;
        this.clock = clock;
        this.turns = new ResponseTurns(turn, clock);
    }

    @Override
    public ByteBuffer buffer() {
        if (buffer == null) {
            buffer = buffers.acquireEmpty();
        }
        return buffer;
    }

    /** Longest wait for the next byte in a blocking read; 0 for none. */
    public void idleTimeout(int millis) {
        this.idleTimeoutMillis = millis;
    }

    /** Blocking reads fail with an {@link HttpTimeoutException} of {@code kind} once {@code deadline} passes. */
    public void deadline(long deadline, HttpTimeoutException.Kind kind) {
        this.deadline = deadline;
        this.deadlineKind = kind;
    }

    public void clearDeadline() {
        this.deadline = Deadline.NONE;
    }

    /** Bytes received on this connection so far. */
    public long bytesReceived() {
        return bytesReceived;
    }

    /** Whether a pooled buffer is attached (for tests; exact only while no thread uses the connection). */
    boolean holdsBuffer() {
        return buffer != null;
    }

    /** Unconsumed bytes in the buffer. */
    public int buffered() {
        return buffer == null ? 0 : buffer.remaining();
    }

    @Override
    public int fill() throws IOException {
        ByteBuffer buf = prepareAppend();
        int timeout = idleTimeoutMillis;
        boolean deadlineBinds = false;
        if (deadline != Deadline.NONE) {
            long left = deadline - clock.getAsLong();
            if (left <= 0) {
                buf.flip();
                throw timeout(true);
            }
            long leftMillis = Math.max(1, (left + 999_999) / 1_000_000);
            if (timeout == 0 || leftMillis < timeout) {
                timeout = (int) Math.min(Integer.MAX_VALUE, leftMillis);
                deadlineBinds = true;
            }
        }
        int n;
        try {
            n = transport.read(buf, timeout);
        } catch (SocketTimeoutException e) {
            throw timeout(deadlineBinds);
        } finally {
            buf.flip();
        }
        return added(n);
    }

    /**
     * Before the first blocking read for a response: scheduler turns looking for it ({@link ResponseTurns}).
     *
     * @return the bytes that arrived, 0 when none did, -1 when the server closed
     */
    int lookForResponse() throws IOException {
        return turns.lookFor(this);
    }

    @Override
    public int fillNow() throws IOException {
        ByteBuffer buf = prepareAppend();
        int n;
        try {
            n = transport.readNow(buf);
        } finally {
            buf.flip();
        }
        return added(n);
    }

    private int added(int n) {
        if (n > 0) {
            bytesReceived += n;
        }
        return n;
    }

    /** Compacts the buffer and leaves it in write mode with room; the caller flips it back. */
    private ByteBuffer prepareAppend() throws IOException {
        ByteBuffer buf = buffer();
        buf.compact();
        if (!buf.hasRemaining()) {
            buf.flip();
            // The codec consumes what it is given (the head parser keeps partial lines itself), so a full buffer
            // means a caller stopped consuming: a bug, not a peer's doing.
            throw new IOException("read buffer full");
        }
        return buf;
    }

    private HttpTimeoutException timeout(boolean deadlinePassed) {
        if (deadlinePassed) {
            return new HttpTimeoutException(deadlineKind, switch (deadlineKind) {
                case RESPONSE_HEADERS -> "response headers did not arrive in time";
                case CALL -> "call timed out";
                default -> "timed out";
            });
        }
        return new HttpTimeoutException(HttpTimeoutException.Kind.READ,
                "no byte received for " + idleTimeoutMillis + " ms");
    }

    /**
     * The connection goes idle: forget the last owner's timeouts (a drain's deadline must not reach the next
     * exchange) and give the buffer back; it holds nothing then, or the connection would not be idle.
     */
    void idle() {
        idleTimeoutMillis = 0;
        deadline = Deadline.NONE;
        if (buffer != null) {
            ByteBuffer b = buffer;
            buffer = null;
            buffers.release(b);
        }
    }
}
