package dev.shuttle.server.io;

import dev.shuttle.wire.http1.Http1Source;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The read side of a server connection for the HTTP/1 codec: a pooled read buffer filled from the channel in blocking
 * mode through its socket adaptor, whose {@code SO_TIMEOUT} gives reads the timeout a blocking
 * {@link SocketChannel#read} lacks. Two timeout modes: a deadline for a whole request head (slowloris defence), or an
 * inactivity bound per read (bodies). {@link #fillNow()} reads once in non-blocking mode and leaves the channel
 * blocking again.
 *
 * <p>Ownership: the buffer is attached when a connection becomes active and detached when it parks; between the two,
 * everything here is owned by the connection's virtual thread. {@link #bytesRead()} may be read from any thread.
 */
public final class SocketSource implements Http1Source {
    private final SocketChannel channel;
    private final Socket socket;
    private final InputStream in;
    private final LongSupplier nanoClock;

    /** Owned by the connection thread; null while parked. */
    private ByteBuffer buffer;
    /** Owned by the connection thread: absolute deadline in nanoTime, or {@link #NO_DEADLINE}. */
    private long deadlineNanos = NO_DEADLINE;
    /** Owned by the connection thread: per-read timeout, used when there is no deadline. */
    private int perReadTimeoutMillis;
    /** Written only by the owning connection thread, read by any. */
    private volatile long bytesRead;

    private static final long NO_DEADLINE = Long.MIN_VALUE;

    public SocketSource(SocketChannel channel, LongSupplier nanoClock) throws IOException {
        this.channel = channel;
        this.socket = channel.socket();
        this.in = socket.getInputStream();
        this.nanoClock = nanoClock;
    }

    /** Takes a cleared buffer from the pool; the source starts empty. */
    public void attach(ByteBuffer readBuffer) {
        if (buffer != null) {
            throw new IllegalStateException("a read buffer is already attached");
        }
        readBuffer.clear().flip(); // read mode, nothing to read
        this.buffer = readBuffer;
    }

    /** Gives the buffer back; only when it holds no unconsumed bytes, or when the connection is closing. */
    public ByteBuffer detach() {
        ByteBuffer detached = buffer;
        buffer = null;
        return detached;
    }

    public boolean isAttached() {
        return buffer != null;
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

    public long bytesRead() {
        return bytesRead;
    }

    @Override
    public int fill() throws IOException {
        makeRoom();
        socket.setSoTimeout(timeoutMillis());
        int position = buffer.limit();
        int n = in.read(buffer.array(), buffer.arrayOffset() + position, buffer.capacity() - position);
        return appended(n);
    }

    /** Bytes that arrived in the socket and were not read yet (the buffer not counted); never blocks. */
    public int availableInSocket() throws IOException {
        return in.available();
    }

    /**
     * Appends bytes that already arrived, without blocking: one non-blocking read, so looking costs one system call
     * whether bytes are there or not (asking how many wait, then reading them, costs two when they are). Switching the
     * channel's blocking mode is no system call once a virtual thread has used it (the JDK then keeps the socket
     * non-blocking underneath), and the channel is registered nowhere while its connection is active.
     */
    @Override
    public int fillNow() throws IOException {
        makeRoom();
        int unread = buffer.position();
        buffer.position(buffer.limit()).limit(buffer.capacity()); // write mode over the free space, for one read
        int n;
        try {
            channel.configureBlocking(false);
            try {
                n = channel.read(buffer);
            } finally {
                channel.configureBlocking(true);
            }
        } finally {
            buffer.limit(buffer.position()).position(unread); // back to read mode, with what was read appended
        }
        if (n > 0) {
            bytesRead += n;
        }
        return n;
    }

    private int appended(int n) {
        if (n > 0) {
            buffer.limit(buffer.limit() + n);
            bytesRead += n;
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
                // The codec consumes every byte it is given, so a full buffer means a caller stopped consuming.
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
        // Round up: a 0 would mean "no timeout" to the socket.
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, TimeUnit.NANOSECONDS.toMillis(remaining + 999_999)));
    }
}
