package dev.shuttle.server.io;

import dev.shuttle.server.ClientGoneException;
import dev.shuttle.transport.BufferPool;
import dev.shuttle.transport.PlainTransport;
import dev.shuttle.transport.Transport;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.Objects;

/**
 * The write side of a server connection: a pooled write buffer in front of the connection's {@link Transport}, so
 * heads and small bodies leave in one write (one TLS record). The transport stamps each socket write for the write
 * watchdog, which closes a connection whose peer stopped reading.
 *
 * <p>The buffer is borrowed by the first write that needs it and given back, empty, when the connection goes idle
 * ({@link #releaseBuffer()}): a connection waiting for its next request (keep-alive turns, or a blocking read with
 * parking off) holds only its read buffer, and an HTTP/2 connection, whose frames leave through their own buffers,
 * borrows none but for an h2c upgrade's {@code 101}. A burst of connections then borrows half as many buffers from the
 * pool, which keeps what it lent for the next burst.
 *
 * <p>Ownership: made when a thread starts working on the connection, and dropped, its buffer back in the pool, when it
 * parks or closes (a parked connection keeps no output); writes and flushes happen on the connection's virtual thread.
 * The bytes written are counted in the connection's {@link ByteCounts}, which outlive this. {@code close()} only
 * flushes: closing the socket is the connection's job.
 */
public final class ConnectionOutput extends OutputStream {
    private final ByteCounts counts;
    private final BufferPool pool;
    /** Plaintext first; the TLS transport once a handshake has run. Owned by the connection thread. */
    private Transport transport;
    /** Owned by the connection thread; null while none is borrowed. Write mode: position = bytes buffered. */
    private ByteBuffer buffer;
    /** The first failed write (the client went away, or stopped reading); owned by the connection thread. */
    private IOException failure;
    /** Set and cleared by the exchange that watches the connection; volatile because any thread may set it. */
    private volatile WriteGate gate;

    /** An output writing through {@code transport}, buffered in a buffer from {@code pool} once it writes. */
    public ConnectionOutput(Transport transport, ByteCounts counts, BufferPool pool) {
        this.transport = transport;
        this.counts = counts;
        this.pool = pool;
    }

    public void use(Transport transport) {
        this.transport = transport;
    }

    /**
     * Gives the buffer, if one is borrowed, back for the pool, dropping any unflushed bytes (call {@link #flush()} first
     * to keep them). The output is of no use afterwards.
     *
     * @return the buffer, or null
     */
    public ByteBuffer detach() {
        ByteBuffer detached = buffer;
        buffer = null;
        return detached;
    }

    /** The connection goes idle: gives the buffer back to the pool if nothing waits in it; the next write borrows one. */
    public void releaseBuffer() {
        ByteBuffer held = buffer;
        if (held != null && held.position() == 0) {
            buffer = null;
            pool.release(held);
        }
    }

    /** Lets {@code gate} hold the channel between writes; null for none. */
    public void gate(WriteGate gate) {
        this.gate = gate;
    }

    /** Whether {@link #transferFrom} sends files without a copy: plaintext only (TLS must encrypt every byte). */
    public boolean transfersFiles() {
        return transport instanceof PlainTransport;
    }

    /**
     * Sends {@code count} bytes of {@code file} from {@code position} after what is buffered: straight from the file
     * to the socket ({@link PlainTransport#transferFrom}) while the socket takes them, and, whenever its buffer is
     * full, one pooled buffer's worth through an ordinary blocking write, which waits for room. Plaintext only.
     *
     * @throws IOException when the file ends early, or the write fails (the client went away)
     */
    public void transferFrom(FileChannel file, long position, long count) throws IOException {
        flush();
        PlainTransport plain = (PlainTransport) transport;
        WriteGate current = gate;
        if (current != null) {
            current.beforeWrite();
        }
        long done = 0;
        try {
            while (done < count) {
                long n = plain.transferFrom(file, position + done, count - done);
                if (n == 0) {
                    n = waitForRoom(file, position + done, count - done);
                }
                done += n;
                counts.countWritten((int) n); // a slice: at most one pooled buffer or one transferTo slice
            }
        } catch (IOException e) {
            throw e instanceof FileEndedException ? e : failed(e, current);
        } finally {
            if (current != null) {
                current.afterWrite();
            }
        }
    }

    /** The socket's buffer is full (or the file ended): one slice copied and written blocking, which waits for room. */
    private long waitForRoom(FileChannel file, long position, long remaining) throws IOException {
        ByteBuffer slice = borrowed();
        slice.clear().limit((int) Math.min(slice.capacity(), remaining));
        int n = file.read(slice, position);
        if (n <= 0) {
            slice.clear();
            throw new FileEndedException("the file ended " + remaining + " bytes before the transfer did");
        }
        try {
            transport.write(slice.array(), slice.arrayOffset(), n);
        } finally {
            slice.clear();
        }
        return n;
    }

    /** The file, not the client, failed a transfer: it ended early (changed while served). */
    private static final class FileEndedException extends IOException {
        FileEndedException(String message) {
            super(message);
        }
    }

    /** Whether a buffer is borrowed (for tests). */
    public boolean holdsBuffer() {
        return buffer != null;
    }

    /**
     * The first write that failed, or null: a handler's failure caused by it is the client going away (a reset, a
     * broken pipe, the write timeout), an ordinary event rather than a server fault.
     */
    public IOException failure() {
        return failure;
    }

    @Override
    public void write(int b) throws IOException {
        ByteBuffer into = borrowed();
        if (!into.hasRemaining()) {
            flushBuffer();
        }
        into.put((byte) b);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        if (len >= pool.bufferSize()) {
            flush();
            send(b, off, len);
            return;
        }
        ByteBuffer into = borrowed();
        if (len > into.remaining()) {
            flushBuffer();
        }
        into.put(b, off, len);
    }

    /** Pushes buffered bytes to the transport. */
    @Override
    public void flush() throws IOException {
        if (buffer != null) {
            flushBuffer();
        }
    }

    private ByteBuffer borrowed() {
        ByteBuffer held = buffer;
        if (held == null) {
            held = pool.acquire(); // cleared: write mode, empty
            buffer = held;
        }
        return held;
    }

    @Override
    public void close() throws IOException {
        flush();
    }

    private void flushBuffer() throws IOException {
        if (buffer.position() > 0) {
            send(buffer.array(), buffer.arrayOffset(), buffer.position());
            buffer.clear();
        }
    }

    private void send(byte[] b, int off, int len) throws IOException {
        WriteGate current = gate;
        if (current != null) {
            current.beforeWrite();
        }
        try {
            transport.write(b, off, len);
        } catch (IOException e) {
            throw failed(e, current);
        } finally {
            if (current != null) {
                current.afterWrite();
            }
        }
        counts.countWritten(len);
    }

    /** A failed write means the client went away (or stopped reading): said so, once, in the exception's type. */
    private IOException failed(IOException e, WriteGate current) {
        IOException gone = e instanceof ClientGoneException ? e
                : new ClientGoneException("the client went away: writing the response failed: " + e, e);
        if (failure == null) {
            failure = gone;
        }
        if (current != null) {
            current.writeFailed(gone);
        }
        return gone;
    }
}
