package dev.shuttle.server.io;

import dev.shuttle.transport.Transport;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * The write side of a server connection: a pooled write buffer in front of the connection's {@link Transport}, so
 * heads and small bodies leave in one write (one TLS record). The transport stamps each socket write for the write
 * watchdog, which closes a connection whose peer stopped reading.
 *
 * <p>Ownership: made with a pooled buffer when a thread starts working on the connection, and dropped, the buffer
 * detached, when it parks or closes (a parked connection keeps no output); writes and flushes happen on the
 * connection's virtual thread. The bytes written are counted in the connection's {@link ByteCounts}, which outlive
 * this. {@code close()} only flushes: closing the socket is the connection's job.
 */
public final class ConnectionOutput extends OutputStream {
    private final ByteCounts counts;
    /** Plaintext first; the TLS transport once a handshake has run. Owned by the connection thread. */
    private Transport transport;
    /** Owned by the connection thread; null once detached. Write mode: position = bytes buffered. */
    private ByteBuffer buffer;
    /** The first failed write (the client went away, or stopped reading); owned by the connection thread. */
    private IOException failure;

    /** An output writing through {@code transport}, buffered in {@code writeBuffer} (from the pool). */
    public ConnectionOutput(Transport transport, ByteCounts counts, ByteBuffer writeBuffer) {
        this.transport = transport;
        this.counts = counts;
        this.buffer = writeBuffer.clear();
    }

    public void use(Transport transport) {
        this.transport = transport;
    }

    /**
     * Gives the buffer back, for the pool, dropping any unflushed bytes (call {@link #flush()} first to keep them). The
     * output is of no use afterwards.
     */
    public ByteBuffer detach() {
        ByteBuffer detached = buffer;
        buffer = null;
        return detached;
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
        if (!buffer.hasRemaining()) {
            flushBuffer();
        }
        buffer.put((byte) b);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        if (len >= buffer.capacity()) {
            flushBuffer();
            send(b, off, len);
            return;
        }
        if (len > buffer.remaining()) {
            flushBuffer();
        }
        buffer.put(b, off, len);
    }

    /** Pushes buffered bytes to the transport. */
    @Override
    public void flush() throws IOException {
        if (buffer != null) {
            flushBuffer();
        }
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
        try {
            transport.write(b, off, len);
        } catch (IOException e) {
            if (failure == null) {
                failure = e;
            }
            throw e;
        }
        counts.countWritten(len);
    }
}
