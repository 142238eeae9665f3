package dev.shuttle.wire.http1;

import dev.shuttle.wire.Headers;
import java.io.IOException;
import java.io.OutputStream;

/**
 * Writes a body in chunked transfer coding: each {@code write} becomes one chunk (empty writes are skipped, since a
 * zero-size chunk would end the body); {@link #finish(Headers)} writes the last chunk and the trailers. {@code close()}
 * finishes without trailers and does not close the underlying stream. Not thread-safe: owned by the writing thread.
 * Each chunk costs three writes to {@code out}, so give it a buffered stream.
 */
public final class ChunkedBodyOutputStream extends OutputStream {
    private static final byte[] HEX = "0123456789abcdef".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
    private static final byte[] CRLF = {'\r', '\n'};

    private final OutputStream out;
    private final byte[] sizeLine = new byte[16 + 2]; // up to 16 hex digits and CRLF; owned by the writing thread
    private boolean finished; // owned by the writing thread

    public ChunkedBodyOutputStream(OutputStream out) {
        this.out = out;
    }

    @Override
    public void write(int b) throws IOException {
        checkOpen();
        writeSizeLine(1);
        out.write(b);
        out.write(CRLF);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        java.util.Objects.checkFromIndexSize(off, len, b.length);
        checkOpen();
        if (len == 0) {
            return;
        }
        writeSizeLine(len);
        out.write(b, off, len);
        out.write(CRLF);
    }

    private void writeSizeLine(long size) throws IOException {
        int digits = Math.max(1, (67 - Long.numberOfLeadingZeros(size)) / 4);
        for (int i = digits - 1, shift = 0; i >= 0; i--, shift += 4) {
            sizeLine[i] = HEX[(int) (size >>> shift) & 0xf];
        }
        sizeLine[digits] = '\r';
        sizeLine[digits + 1] = '\n';
        out.write(sizeLine, 0, digits + 2);
    }

    private void checkOpen() throws IOException {
        if (finished) {
            throw new IOException("chunked body already finished");
        }
    }

    @Override
    public void flush() throws IOException {
        out.flush();
    }

    /** Writes {@code 0 CRLF}, the trailers and the final CRLF. Idempotent. */
    public void finish(Headers trailers) throws IOException {
        if (finished) {
            return;
        }
        finished = true;
        byte[] end = new byte[3 + Http1HeadWriter.fieldsSize(trailers) + 2];
        end[0] = '0';
        end[1] = '\r';
        end[2] = '\n';
        int at = Http1HeadWriter.putFields(end, 3, trailers);
        end[at] = '\r';
        end[at + 1] = '\n';
        out.write(end);
    }

    @Override
    public void close() throws IOException {
        finish(Headers.EMPTY);
    }
}
