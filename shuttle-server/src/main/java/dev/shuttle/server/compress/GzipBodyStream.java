package dev.shuttle.server.compress;

import java.io.IOException;
import java.io.OutputStream;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

/**
 * A gzip member (RFC 1952) written as the body goes: raw deflate between the 10-byte header and the CRC-32 and length
 * trailer. {@code flush()} is a sync flush, which ends the compressed block so every byte written so far can be
 * decompressed by the client now. The deflater's native memory is freed by {@link #release()}, which the middleware
 * calls however the handler ended. Owned by the handler's thread.
 */
final class GzipBodyStream extends OutputStream {
    private static final byte[] HEADER = {0x1f, (byte) 0x8b, Deflater.DEFLATED, 0, 0, 0, 0, 0, 0, (byte) 0xff};

    private final OutputStream out;
    private final Deflater deflater;
    private final CRC32 crc = new CRC32();
    private final byte[] buffer = new byte[8 * 1024];
    private boolean headerWritten;
    private boolean closed;

    GzipBodyStream(OutputStream out, int level) {
        this.out = out;
        this.deflater = new Deflater(level, true);
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        if (closed) {
            throw new IOException("response body closed");
        }
        if (len == 0) {
            return;
        }
        header();
        crc.update(b, off, len);
        deflater.setInput(b, off, len);
        while (!deflater.needsInput()) {
            drain(Deflater.NO_FLUSH);
        }
    }

    @Override
    public void flush() throws IOException {
        if (closed) {
            return;
        }
        header();
        int n;
        do {
            n = drain(Deflater.SYNC_FLUSH);
        } while (n == buffer.length);
        out.flush();
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        header();
        deflater.finish();
        while (!deflater.finished()) {
            drain(Deflater.NO_FLUSH);
        }
        long value = crc.getValue();
        long size = deflater.getBytesRead();
        out.write(new byte[] {(byte) value, (byte) (value >> 8), (byte) (value >> 16), (byte) (value >> 24),
                (byte) size, (byte) (size >> 8), (byte) (size >> 16), (byte) (size >> 24)});
        closed = true;
        out.close();
    }

    /** Frees the deflater; the stream is of no use afterwards. Idempotent. */
    void release() {
        closed = true;
        deflater.end();
    }

    private void header() throws IOException {
        if (!headerWritten) {
            headerWritten = true;
            out.write(HEADER);
        }
    }

    private int drain(int flush) throws IOException {
        int n = deflater.deflate(buffer, 0, buffer.length, flush);
        if (n > 0) {
            out.write(buffer, 0, n);
        }
        return n;
    }
}
