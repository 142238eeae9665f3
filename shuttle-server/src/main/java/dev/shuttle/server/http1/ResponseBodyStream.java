package dev.shuttle.server.http1;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.Objects;

/**
 * The response body stream handed to handlers. Holds the first {@link ServerResponse#FIRST_CHUNK_BYTES} in a small
 * buffer that grows as needed, so a short body can still be sent with a Content-Length when the handler returns;
 * past that (or on flush) it commits the response and streams through the chosen framing. Owned by the connection
 * thread.
 */
final class ResponseBodyStream extends OutputStream {
    private static final byte[] NOTHING = new byte[0];

    private final ServerResponse response;
    /** Bytes written before commit; dropped at commit. */
    private byte[] firstChunk = NOTHING;
    private int buffered;
    private boolean committed;
    private boolean closed;

    ResponseBodyStream(ServerResponse response) {
        this.response = response;
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        if (closed) {
            throw new IOException("response body closed");
        }
        if (len == 0) {
            return;
        }
        if (!response.bodyAllowed()) {
            throw new IOException("a " + response.status() + " response has no body");
        }
        if (!committed) {
            if (buffered + len <= ServerResponse.FIRST_CHUNK_BYTES) {
                if (buffered + len > firstChunk.length) {
                    int capacity = Math.max(firstChunk.length * 2, 256);
                    firstChunk = Arrays.copyOf(firstChunk,
                            Math.min(ServerResponse.FIRST_CHUNK_BYTES, Math.max(capacity, buffered + len)));
                }
                System.arraycopy(b, off, firstChunk, buffered, len);
                buffered += len;
                return;
            }
            commit(false);
        }
        response.writeFramed(b, off, len);
    }

    /**
     * {@code write(body); close()} for a body that is complete in one array: when nothing was written before, the
     * response commits with it directly instead of copying it into the first-chunk buffer first (one allocation and
     * one copy less for the commonest response, {@link dev.shuttle.server.Response#send(byte[])}).
     */
    void writeWholeAndClose(byte[] body) throws IOException {
        if (closed || committed || buffered > 0 || body.length == 0) {
            write(body, 0, body.length);
            close();
            return;
        }
        if (!response.bodyAllowed()) {
            throw new IOException("a " + response.status() + " response has no body");
        }
        closed = true;
        committed = true;
        response.commit(true, body.length);
        response.writeFramed(body, 0, body.length);
        response.endBody();
    }

    /** Whether any body byte was written (or the body ended) before. */
    boolean hasWritten() {
        return closed || committed || buffered > 0;
    }

    /**
     * Before body bytes are sent past this stream (a file transfer): commits the response if it was not, which
     * frames and writes what was buffered, so the transferred bytes follow it.
     */
    void commitForTransfer() throws IOException {
        if (closed) {
            throw new IOException("response body closed");
        }
        if (!committed) {
            commit(false);
        }
    }

    /** Commits (the body is not complete, so no automatic Content-Length) and pushes everything to the client. */
    @Override
    public void flush() throws IOException {
        if (closed) {
            return;
        }
        if (!committed) {
            commit(false);
        }
        response.flushOutput();
    }

    /** Ends the body; the response is committed first if it was not. Idempotent. */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        if (!committed) {
            commit(true);
        }
        response.endBody();
    }

    private void commit(boolean complete) throws IOException {
        committed = true;
        response.commit(complete, buffered);
        if (buffered > 0) {
            response.writeFramed(firstChunk, 0, buffered);
        }
        firstChunk = NOTHING;
        buffered = 0;
    }
}
