package dev.shuttle.client.http1;

import dev.shuttle.transport.BufferPool;
import dev.shuttle.transport.Transport;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * Buffers one request's head and body on their way to the socket, in a buffer borrowed from the client's
 * {@link BufferPool} for the time of the write and given back by {@link #close()}: a request with a body costs no
 * buffer allocation, and the head and a small body still leave in one write (one TLS record). Writes after {@code close()} fail, so a
 * body publisher that keeps the stream cannot write into a buffer that is someone else's by then.
 *
 * <p>Owned by the thread writing the request. {@code close()} does not flush: the exchange flushes once the body is
 * complete, and a failed write must not send a partial request afterwards.
 */
final class RequestOutputStream extends OutputStream {
    private final Transport socket;
    private final BufferPool buffers;
    /** The borrowed buffer; null once given back. */
    private ByteBuffer borrowed;
    private byte[] array;
    private final int offset;
    private final int capacity;
    /** Bytes buffered, from {@code offset}. */
    private int count;
    /** A socket write failed (as opposed to the body's own source). */
    private boolean socketFailed;

    RequestOutputStream(Transport socket, BufferPool buffers) {
        this.socket = socket;
        this.buffers = buffers;
        this.borrowed = buffers.acquire();
        this.array = borrowed.array();
        this.offset = borrowed.arrayOffset();
        this.capacity = borrowed.capacity();
    }

    @Override
    public void write(int b) throws IOException {
        ensureOpen();
        if (count == capacity) {
            flushBuffer();
        }
        array[offset + count++] = (byte) b;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        ensureOpen();
        if (len >= capacity) {
            // Larger than the buffer: copying it through would only add work.
            flushBuffer();
            socketWrite(b, off, len);
            return;
        }
        if (len > capacity - count) {
            flushBuffer();
        }
        System.arraycopy(b, off, array, offset + count, len);
        count += len;
    }

    @Override
    public void flush() throws IOException {
        ensureOpen();
        flushBuffer();
    }

    private void flushBuffer() throws IOException {
        if (count > 0) {
            int n = count;
            count = 0;
            socketWrite(array, offset, n);
        }
    }

    private void socketWrite(byte[] b, int off, int len) throws IOException {
        try {
            socket.write(b, off, len);
        } catch (IOException e) {
            socketFailed = true;
            throw e;
        }
    }

    /** Whether a socket write failed: the server may have answered and closed, so its answer is worth reading. */
    boolean socketFailed() {
        return socketFailed;
    }

    private void ensureOpen() throws IOException {
        if (borrowed == null) {
            throw new IOException("request already written");
        }
    }

    /** Gives the buffer back, discarding anything not flushed. Idempotent. */
    @Override
    public void close() {
        ByteBuffer buffer = borrowed;
        if (buffer != null) {
            borrowed = null;
            array = null;
            count = 0;
            buffers.release(buffer);
        }
    }
}
