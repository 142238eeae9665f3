package dev.shuttle.wire.http1;

import java.io.IOException;
import java.io.OutputStream;

/**
 * Writes a body of a declared Content-Length: writing more than declared throws at once; closing before all bytes
 * were written throws, since the peer would wait for the rest and the connection cannot be reused.
 * {@code close()} does not close the underlying stream. Not thread-safe: owned by the thread writing the body.
 */
public final class FixedLengthBodyOutputStream extends OutputStream {
    private final OutputStream out;
    private final long length;
    private long written;
    private boolean closed;

    public FixedLengthBodyOutputStream(OutputStream out, long length) {
        this.out = out;
        this.length = length;
    }

    @Override
    public void write(int b) throws IOException {
        checkRoom(1);
        out.write(b);
        written++;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        checkRoom(len);
        out.write(b, off, len);
        written += len;
    }

    /**
     * Counts {@code count} body bytes the caller sends past this stream (a file transferred straight to the socket),
     * as if they had been written here: they must fit the Content-Length.
     */
    public void reserve(long count) throws IOException {
        checkRoom(count);
        written += count;
    }

    private void checkRoom(long len) throws IOException {
        if (closed) {
            throw new IOException("body stream closed");
        }
        if (written + len > length) {
            throw new IOException("body exceeds its Content-Length: " + (written + len) + " > " + length);
        }
    }

    @Override
    public void flush() throws IOException {
        out.flush();
    }

    public long written() {
        return written;
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        if (written != length) {
            throw new IOException("body closed after " + written + " of " + length + " bytes declared by Content-Length");
        }
    }
}
