package dev.shuttle.wire.http1;

import dev.shuttle.wire.Headers;
import java.io.IOException;
import java.io.OutputStream;

/**
 * Writes a body in chunked transfer coding: each {@code write} becomes one chunk (empty writes are skipped, since a
 * zero-size chunk would end the body); {@link #finish(Headers)} writes the last chunk and the trailers. {@code close()}
 * finishes without trailers and does not close the underlying stream.
 */
public final class ChunkedBodyOutputStream extends OutputStream {
    private final OutputStream out;

    public ChunkedBodyOutputStream(OutputStream out) {
        this.out = out;
    }

    @Override
    public void write(int b) throws IOException {
        throw new UnsupportedOperationException("TODO(wire)");
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        throw new UnsupportedOperationException("TODO(wire)");
    }

    @Override
    public void flush() throws IOException {
        out.flush();
    }

    /** Writes {@code 0 CRLF}, the trailers and the final CRLF. Idempotent. */
    public void finish(Headers trailers) throws IOException {
        throw new UnsupportedOperationException("TODO(wire)");
    }

    @Override
    public void close() throws IOException {
        finish(Headers.EMPTY);
    }
}
