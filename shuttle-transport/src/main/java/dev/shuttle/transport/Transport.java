package dev.shuttle.transport;

import dev.shuttle.transport.tls.TlsInfo;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.IllegalBlockingModeException;
import java.nio.channels.SocketChannel;
import java.util.function.LongSupplier;

/**
 * A connected byte stream for one connection: plaintext TCP ({@link PlainTransport}) or TLS over it
 * ({@link TlsTransport}). Protocol code (HTTP/1, HTTP/2) reads and writes application bytes through it and never
 * sees TLS records.
 *
 * <p>I/O model: the channel is in blocking mode while a thread works on the connection, and blocking reads go through
 * the channel's socket adaptor, whose {@code SO_TIMEOUT} gives them the timeout that {@link SocketChannel#read} lacks
 * (on a virtual thread such a read parks the thread, not its carrier). {@link #readNow} reads without blocking.
 * Writes go through the channel itself, blocking. Parking (no thread at all) is the {@link ReadinessWatcher}'s job,
 * after {@link #releaseBuffers()}.
 *
 * <p>Memory: a parked connection keeps its transport, so it holds nothing it can make again. The socket adaptor is
 * made by the first blocking read (the JDK then keeps it with the channel), and its input stream by the first
 * blocking read after each park; a connection whose reads never had to wait (the whole request there when it looked,
 * as for most small requests) never makes either.
 *
 * <p>Threads: one thread reads at a time, one thread writes at a time (HTTP/2 serialises its writers itself); a read
 * and a write may run concurrently. {@link #close()}, the counters and {@link #writeStartedNanos()} are safe from any
 * thread.
 */
public abstract sealed class Transport implements AutoCloseable permits PlainTransport, TlsTransport {
    /** {@link #writeStartedNanos()} when no write is in progress. */
    public static final long NOT_WRITING = Long.MIN_VALUE;
    /** Large writes go out in slices, so the byte counter and the write-timeout stamp move while a slow peer reads. */
    private static final int MAX_SOCKET_WRITE = 64 * 1024;
    /** A file transfer's slice: large enough for sendfile to fill a socket buffer, small enough to move the stamps. */
    private static final long MAX_FILE_SLICE = 1024 * 1024;

    protected final SocketChannel channel;
    protected final LongSupplier nanoClock;
    /** The channel's socket adaptor, for timed reads; null until the first. Reading thread only. */
    private Socket socket;
    /** The adaptor's input stream; null until a blocking read needs it, again after {@link #releaseBuffers()}. Reading thread only. */
    private InputStream in;
    /**
     * The last array {@link #writeSocket} wrapped, kept to wrap it again for nothing: a connection writes its heads
     * from the same buffer or cached array request after request. Writing thread only, and never with writers
     * sharing the channel; dropped by {@link #releaseBuffers()}, so an idle connection keeps no buffer reachable.
     */
    private ByteBuffer writeView;
    private final InetSocketAddress localAddress;
    private final InetSocketAddress remoteAddress;

    /** Written by the reading thread only; read by any. */
    private volatile long bytesReceived;
    /** Written by the writing thread only; read by any. */
    private volatile long bytesSent;
    /** Of {@link #bytesSent}, those that went from a file to the socket without a copy; writing thread only. */
    private volatile long bytesSentFromFiles;
    /** nanoTime when the socket write in progress began, or {@link #NOT_WRITING}; read by a write watchdog. */
    private volatile long writeStartedNanos = NOT_WRITING;
    /** Set once: other threads write while the reader reads (HTTP/2); see {@link #shareWithWriters()}. */
    private volatile boolean sharedWithWriters;

    Transport(SocketChannel channel, LongSupplier nanoClock) throws IOException {
        this.channel = channel;
        this.nanoClock = nanoClock;
        this.localAddress = (InetSocketAddress) channel.getLocalAddress();
        this.remoteAddress = (InetSocketAddress) channel.getRemoteAddress();
    }

    /**
     * Reads application bytes into {@code dst} (in write mode: from its position up to its limit), waiting at most
     * {@code timeoutMillis} in all for the first of them (0: no limit).
     *
     * @return bytes read (at least 1), or -1 at the end of the stream
     * @throws SocketTimeoutException when no byte arrived in time
     */
    public abstract int read(ByteBuffer dst, int timeoutMillis) throws IOException;

    /**
     * Reads application bytes that can be had without waiting. The channel must not be registered with a selector.
     *
     * @return bytes read, 0 when none are there yet, -1 at the end of the stream
     */
    public abstract int readNow(ByteBuffer dst) throws IOException;

    /** Writes every byte, blocking while the peer does not read. */
    public abstract void write(byte[] bytes, int offset, int length) throws IOException;

    /** Ends our direction of the stream (TLS: close_notify, then TCP FIN); reading stays possible. */
    public abstract void shutdownOutput() throws IOException;

    /**
     * Whether application bytes (or, for TLS, a complete record) are held here, read from the socket but not yet
     * given to the caller: then the connection must not park, since no readiness would announce them; read with
     * {@link #readNow} instead.
     */
    public abstract boolean hasBufferedInput();

    /**
     * The connection goes idle: gives pooled buffers back, and drops the socket adaptor's input stream (made again by
     * the next blocking read) and the last write's view of its array. Call only from the thread that owns the
     * connection, and only when {@link #hasBufferedInput()} is false. A partial TLS record is kept in an array of its
     * exact size.
     */
    public abstract void releaseBuffers();

    /**
     * From now on, threads other than the reader write while it reads (HTTP/2 handlers). A non-blocking read must
     * then not switch the channel's blocking mode, which a concurrent blocking write would trip over: {@link #readNow}
     * asks the kernel how many bytes wait ({@code FIONREAD}) and reads just those instead. The price: it cannot see
     * the end of the stream (0 bytes wait either way), which {@link #readNow} then reports as 0; a caller woken by
     * readiness that finds nothing tells the two apart with a short blocking read.
     */
    public void shareWithWriters() {
        this.sharedWithWriters = true;
    }

    public boolean isSharedWithWriters() {
        return sharedWithWriters;
    }

    /** The TLS session's details, or null for plaintext. */
    public TlsInfo tls() {
        return null;
    }

    public final SocketChannel channel() {
        return channel;
    }

    public final InetSocketAddress localAddress() {
        return localAddress;
    }

    public final InetSocketAddress remoteAddress() {
        return remoteAddress;
    }

    public final boolean isOpen() {
        return channel.isOpen();
    }

    /** Bytes received from the socket (TLS records included). */
    public final long bytesReceived() {
        return bytesReceived;
    }

    /** Bytes the socket accepted for sending (TLS records included). */
    public final long bytesSent() {
        return bytesSent;
    }

    /** Of {@link #bytesSent()}, the bytes a file transfer sent straight from the file (zero-copy). */
    public final long bytesSentFromFiles() {
        return bytesSentFromFiles;
    }

    /** nanoTime when the socket write in progress began, or {@link #NOT_WRITING}. */
    public final long writeStartedNanos() {
        return writeStartedNanos;
    }

    /** Closes the socket from any thread; a thread blocked on it fails at once. Idempotent. */
    @Override
    public void close() {
        try {
            channel.close();
        } catch (IOException e) {
            System.getLogger(Transport.class.getName()).log(System.Logger.Level.TRACE, "close failed", e);
        }
    }

    // ---- socket I/O for the subclasses ----

    /** One blocking socket read into a heap buffer in write mode, bounded by {@code timeoutMillis} (0: none). */
    final int readSocket(ByteBuffer dst, int timeoutMillis) throws IOException {
        InputStream in = socketInput();
        socket.setSoTimeout(timeoutMillis);
        int n = in.read(dst.array(), dst.arrayOffset() + dst.position(), dst.remaining());
        if (n > 0) {
            dst.position(dst.position() + n);
            bytesReceived += n;
        }
        return n;
    }

    /**
     * One non-blocking socket read. Switching the blocking mode is no system call once a virtual thread has used the
     * channel (the JDK keeps the socket non-blocking underneath), so looking costs one read. With writers sharing the
     * channel the mode stays as it is: see {@link #shareWithWriters()}.
     */
    final int readSocketNow(ByteBuffer dst) throws IOException {
        int n;
        if (sharedWithWriters) {
            InputStream in = socketInput();
            int waiting = in.available();
            if (waiting <= 0) {
                return 0;
            }
            socket.setSoTimeout(0);
            n = in.read(dst.array(), dst.arrayOffset() + dst.position(), Math.min(waiting, dst.remaining()));
            if (n > 0) {
                dst.position(dst.position() + n);
                bytesReceived += n;
            }
            return n;
        }
        channel.configureBlocking(false);
        try {
            n = channel.read(dst);
        } finally {
            channel.configureBlocking(true);
        }
        if (n > 0) {
            bytesReceived += n;
        }
        return n;
    }

    /**
     * The socket adaptor's input stream, made on first use after the transport was made or went idle. The adaptor
     * refuses to make one for a closed socket: that is reported as a read of a closed channel is.
     */
    private InputStream socketInput() throws IOException {
        InputStream stream = in;
        if (stream == null) {
            try {
                if (socket == null) {
                    socket = channel.socket();
                }
                stream = socket.getInputStream();
            } catch (SocketException e) {
                if (!channel.isOpen()) {
                    throw new ClosedChannelException();
                }
                throw e;
            }
            in = stream;
        }
        return stream;
    }

    /**
     * For {@link #releaseBuffers()}: drops the socket input stream, made again by the next blocking read, and the
     * write view. Call only from the thread that owns the connection, when it both reads and writes.
     */
    final void dropStreams() {
        in = null;
        writeView = null;
    }

    /**
     * Whether {@link #writeParked} can write while the channel is parked (non-blocking and registered with a
     * watcher): plaintext can, TLS cannot (a record cut short by a full socket would have to wait somewhere).
     */
    public boolean writesWhileParked() {
        return false;
    }

    /**
     * For a transport shared with writers: writes with the channel itself, which works in either blocking mode, so a
     * writer need not take a parked channel back from its watcher. Returns the bytes written: all of them, unless the
     * channel is non-blocking and the socket's buffer filled, when the caller takes the channel back (blocking mode)
     * and writes the rest with {@link #write}.
     *
     * @throws UnsupportedOperationException when {@link #writesWhileParked()} is false
     */
    public int writeParked(byte[] bytes, int offset, int length) throws IOException {
        throw new UnsupportedOperationException("this transport cannot write while parked");
    }

    /** The channel write behind {@link #writeParked}, stamped for the write watchdog and counted. */
    final int writeChannel(byte[] bytes, int offset, int length) throws IOException {
        ByteBuffer source = ByteBuffer.wrap(bytes, offset, length);
        writeStartedNanos = nanoClock.getAsLong();
        try {
            while (source.hasRemaining()) {
                if (channel.write(source) == 0) {
                    break; // non-blocking and the socket buffer is full
                }
            }
        } finally {
            writeStartedNanos = NOT_WRITING;
        }
        int written = length - source.remaining();
        bytesSent += written;
        return written;
    }

    /**
     * Writes every byte, blocking, stamping each slice for the write watchdog. Through the channel rather than the socket
     * adaptor's output stream, which does the same (one blocking write after another until all is out) but would make
     * the adaptor and a stream for every connection. The channel must be in blocking mode, as the adaptor's stream
     * required: a non-blocking channel here would spin.
     */
    final void writeSocket(byte[] bytes, int offset, int length) throws IOException {
        if (!channel.isBlocking()) {
            throw new IllegalBlockingModeException();
        }
        int end = offset + length;
        ByteBuffer source = view(bytes, offset, end);
        while (source.hasRemaining()) {
            int slice = Math.min(MAX_SOCKET_WRITE, source.remaining());
            source.limit(source.position() + slice);
            writeStartedNanos = nanoClock.getAsLong();
            try {
                while (source.hasRemaining()) {
                    if (channel.write(source) == 0 && !channel.isBlocking()) {
                        throw new IllegalBlockingModeException(); // switched under us: the contract was broken
                    }
                }
            } finally {
                writeStartedNanos = NOT_WRITING;
            }
            bytesSent += slice;
            source.limit(end);
        }
    }

    /** {@code bytes} from {@code offset} to {@code end} as a buffer: the last one again when it wraps the same array. */
    private ByteBuffer view(byte[] bytes, int offset, int end) {
        if (sharedWithWriters) {
            return ByteBuffer.wrap(bytes, offset, end - offset);
        }
        ByteBuffer view = writeView;
        if (view == null || view.array() != bytes) {
            view = ByteBuffer.wrap(bytes);
            writeView = view;
        }
        view.limit(end).position(offset);
        return view;
    }

    /**
     * One {@link FileChannel#transferTo} of up to {@code count} bytes (at most one slice) from the file to the socket,
     * stamped for the write watchdog and counted. On a virtual thread the socket is non-blocking underneath, so this
     * returns 0 when the socket's buffer is full instead of waiting.
     */
    final long transferFile(FileChannel file, long position, long count) throws IOException {
        writeStartedNanos = nanoClock.getAsLong();
        long n;
        try {
            n = file.transferTo(position, Math.min(count, MAX_FILE_SLICE), channel);
        } finally {
            writeStartedNanos = NOT_WRITING;
        }
        bytesSent += n;
        bytesSentFromFiles += n;
        return n;
    }

    /** The rest of {@code timeoutMillis} after {@code startNanos}; throws once it is spent. 0 stays 0 (no limit). */
    final int remainingMillis(int timeoutMillis, long startNanos) throws SocketTimeoutException {
        if (timeoutMillis == 0) {
            return 0;
        }
        long elapsedMillis = (nanoClock.getAsLong() - startNanos) / 1_000_000;
        long left = timeoutMillis - elapsedMillis;
        if (left <= 0) {
            throw new SocketTimeoutException("read timed out");
        }
        return (int) left;
    }
}
