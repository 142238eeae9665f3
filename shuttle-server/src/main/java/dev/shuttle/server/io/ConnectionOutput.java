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
 * <p>Ownership: the buffer is attached while the connection is active; writes and flushes happen on the connection's
 * virtual thread. {@link #bytesWritten()} may be read from any thread. {@code close()} only flushes: closing the
 * socket is the connection's job.
 */
public final class ConnectionOutput extends OutputStream {
    /** Plaintext first; the TLS transport once a handshake has run. Owned by the connection thread. */
    private Transport transport;
    /** Owned by the connection thread; null while parked. Write mode: position = bytes buffered. */
    private ByteBuffer buffer;
    /** Application bytes handed to the transport. Written only by the connection thread, read by any. */
    private volatile long bytesWritten;
    /** The first failed write (the client went away, or stopped reading); owned by the connection thread. */
    private IOException failure;

    public ConnectionOutput(Transport transport) {
        this.transport = transport;
    }

    public void use(Transport transport) {
        this.transport = transport;
    }

    public void attach(ByteBuffer writeBuffer) {
        if (buffer != null) {
            throw new IllegalStateException("a write buffer is already attached");
        }
        this.buffer = writeBuffer.clear();
    }

    /** Gives the buffer back, dropping any unflushed bytes (call {@link #flush()} first to keep them). */
    public ByteBuffer detach() {
        ByteBuffer detached = buffer;
        buffer = null;
        return detached;
    }

    public boolean isAttached() {
        return buffer != null;
    }

    public long bytesWritten() {
        return bytesWritten;
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

    /**
     * Counts bytes another writer sent on the transport directly (HTTP/2's frame writer, under its write lock), so
     * {@link #bytesWritten()} covers every protocol.
     */
    public void countWritten(int len) {
        bytesWritten += len;
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
        bytesWritten += len;
    }
}
