package dev.shuttle.server.http2;

import dev.shuttle.server.Response;
import dev.shuttle.server.core.HttpDate;
import dev.shuttle.server.core.StatusText;
import dev.shuttle.wire.Headers;
import dev.shuttle.wire.http2.Http2Fields;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * An HTTP/2 response: the same {@link Response} contract as HTTP/1.1's. Status and headers may change until commit;
 * commit happens when the body outgrows {@link #FIRST_CHUNK_BYTES}, on {@link #flush()}, or when the handler returns.
 * A body complete within the first chunk gets a content-length and leaves with its HEADERS in one write (HEADERS,
 * then DATA with END_STREAM); a longer one streams as DATA frames of up to 16 KiB, each sent when full or on
 * {@code flush()}; trailers go as a last HEADERS frame with END_STREAM. HEAD and 1xx/204/304 carry no body.
 * Connection-specific fields the handler set are dropped (HTTP/2 has none). Owned by the handler's thread.
 */
final class Http2Response implements Response {
    static final int FIRST_CHUNK_BYTES = 8 * 1024;
    private static final byte[] NOTHING = new byte[0];

    private enum Phase { OPEN, COMMITTED, FINISHED }

    private final StreamSender sender;
    private final Http2Stream stream;
    private final boolean headRequest;

    private int status = 200;
    private final Headers.Builder headers = Headers.builder();
    private long contentLength = -1;
    private Headers trailers;
    private Phase phase = Phase.OPEN;
    private BodyStream body;

    /** Body bytes waiting to be sent: the first chunk before commit, then up to one DATA frame. */
    private byte[] pending = NOTHING;
    private int pendingCount;
    /** Body bytes handed to DATA frames so far. */
    private long sent;
    /** See {@link #sendFailure()}. */
    private IOException sendFailure;

    Http2Response(StreamSender sender, Http2Stream stream, boolean headRequest) {
        this.sender = sender;
        this.stream = stream;
        this.headRequest = headRequest;
    }

    @Override
    public Response status(int status) {
        checkOpen();
        if (status < 200 || status > 999) {
            throw new IllegalArgumentException("status must be 200..999, got " + status);
        }
        this.status = status;
        return this;
    }

    @Override
    public int status() {
        return status;
    }

    @Override
    public Response header(String name, String value) {
        checkOpen();
        if (!lengthHeader(name, value)) {
            headers.set(name, value);
        }
        return this;
    }

    @Override
    public Response addHeader(String name, String value) {
        checkOpen();
        if (!lengthHeader(name, value)) {
            headers.add(name, value);
        }
        return this;
    }

    private boolean lengthHeader(String name, String value) {
        if (name.equalsIgnoreCase("Content-Length")) {
            try {
                contentLength(Long.parseLong(value.strip()));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("invalid Content-Length: " + value);
            }
            return true;
        }
        if (name.equalsIgnoreCase("Transfer-Encoding")) {
            throw new IllegalArgumentException("the server chooses the framing; use contentLength() or leave it unset");
        }
        return false;
    }

    @Override
    public Response removeHeader(String name) {
        checkOpen();
        if (name.equalsIgnoreCase("Content-Length")) {
            contentLength = -1;
        }
        headers.remove(name);
        return this;
    }

    @Override
    public Headers headers() {
        return headers.build();
    }

    @Override
    public Response contentLength(long length) {
        checkOpen();
        if (length < 0) {
            throw new IllegalArgumentException("negative Content-Length: " + length);
        }
        this.contentLength = length;
        return this;
    }

    @Override
    public Response trailers(Headers trailers) {
        if (phase == Phase.FINISHED) {
            throw new IllegalStateException("response already finished");
        }
        this.trailers = trailers;
        return this;
    }

    @Override
    public OutputStream body() {
        if (body == null) {
            body = new BodyStream();
        }
        return body;
    }

    /** As {@link Response#send(byte[])} promises: a Content-Length only when nothing was written before. */
    @Override
    public void send(byte[] bytes) throws IOException {
        if (phase == Phase.OPEN && pendingCount == 0 && (body == null || !body.closed)) {
            contentLength(bytes.length);
        }
        OutputStream out = body();
        out.write(bytes);
        out.close();
    }

    @Override
    public void flush() throws IOException {
        body().flush();
    }

    @Override
    public boolean isCommitted() {
        return phase != Phase.OPEN;
    }

    private void checkOpen() {
        if (phase != Phase.OPEN) {
            throw new IllegalStateException("response already committed");
        }
    }

    private boolean bodyAllowed() {
        return StatusText.allowsBody(status);
    }

    /** The handler returned: commit if needed and end the stream. Idempotent. */
    void finish() throws IOException {
        if (phase != Phase.FINISHED) {
            body().close();
        }
    }

    /**
     * Sends the head. {@code complete}: the pending bytes are the whole body, so it gets a content-length, and an
     * empty body ends the stream with the HEADERS frame itself.
     */
    private void commit(boolean complete) throws IOException {
        Http2Writer.refuseIfInterrupted(); // refused before the commit: the handler's failure is then answered 500
        phase = Phase.COMMITTED;
        boolean noBody = !bodyAllowed() || headRequest;
        boolean endStream = complete && !hasTrailers() && (noBody || pendingCount == 0);
        try {
            sender.sendHeaders(stream, responseFields(complete), endStream);
        } catch (IOException e) {
            throw sendFailed(e);
        }
        if (noBody) {
            pendingCount = 0;
        }
    }

    /**
     * The handler returned before anything was sent, with a body that fits one DATA frame and no trailers: head and
     * body leave in one write. False when the response is not that simple (the caller commits and ends as usual).
     */
    private boolean sendWhole() throws IOException {
        if (hasTrailers() || headRequest || !bodyAllowed() || pendingCount == 0
                || pendingCount > Http2Writer.MAX_DATA_FRAME || (contentLength >= 0 && contentLength != pendingCount)) {
            return false;
        }
        Http2Writer.refuseIfInterrupted();
        phase = Phase.COMMITTED;
        try {
            sender.sendHeadersAndData(stream, responseFields(true), pending, 0, pendingCount);
        } catch (IOException e) {
            throw sendFailed(e);
        }
        sent = pendingCount;
        pendingCount = 0;
        return true;
    }

    /** The response head's fields; {@code content-length} is never among the handler's headers (see header()). */
    private List<String> responseFields(boolean complete) {
        String length = null;
        if (contentLength >= 0 && (bodyAllowed() || status == 304)) {
            length = Long.toString(contentLength);
        } else if (complete && !hasTrailers() && bodyAllowed() && (!headRequest || pendingCount > 0)) {
            // A HEAD handler that wrote nothing may not know the length; claiming 0 would be wrong (as in Go).
            length = Integer.toString(pendingCount);
        }
        Headers own = headers.build();
        return Http2Fields.response(status, own, length, own.contains("date") ? null : HttpDate.now());
    }

    private boolean hasTrailers() {
        return trailers != null && !trailers.isEmpty();
    }

    /** Sends the pending bytes as DATA, ending the stream with the last frame when {@code end}. */
    private void sendPending(boolean end) throws IOException {
        if (headRequest || !bodyAllowed()) {
            pendingCount = 0;
            return;
        }
        if (contentLength >= 0 && sent + pendingCount > contentLength) {
            sender.reset(stream);
            throw new IOException("body longer than its Content-Length of " + contentLength);
        }
        sendData(pending, pendingCount, end);
        sent += pendingCount;
        pendingCount = 0;
    }

    /** Ends the body: checks the declared length, sends what is pending, then trailers or END_STREAM. */
    private void end() throws IOException {
        boolean body = bodyAllowed() && !headRequest;
        if (body && contentLength >= 0 && sent + pendingCount != contentLength) {
            sender.reset(stream);
            throw new IOException("body of " + (sent + pendingCount) + " bytes, Content-Length " + contentLength);
        }
        boolean withTrailers = hasTrailers();
        if (!body) {
            if (withTrailers) {
                sendTrailers();
            } else if (!sender.localEnded(stream)) {
                sendData(NOTHING, 0, true);
            }
            return;
        }
        sendPending(!withTrailers);
        if (withTrailers) {
            sendTrailers();
        }
    }

    private void sendData(byte[] bytes, int length, boolean end) throws IOException {
        try {
            sender.sendData(stream, bytes, 0, length, end);
        } catch (IOException e) {
            throw sendFailed(e);
        }
    }

    private void sendTrailers() throws IOException {
        try {
            sender.sendTrailers(stream, Http2Fields.trailers(trailers));
        } catch (IOException e) {
            throw sendFailed(e);
        }
    }

    private IOException sendFailed(IOException e) {
        if (sendFailure == null) {
            sendFailure = e;
        }
        return e;
    }

    /**
     * The first failure to send this response's frames (the stream was reset, the connection failed, the client kept
     * its window shut), or null: a handler failure it caused is the client's doing, not the handler's.
     */
    IOException sendFailure() {
        return sendFailure;
    }

    /** The handler's body stream. */
    private final class BodyStream extends OutputStream {
        private boolean closed;

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
            if (!bodyAllowed()) {
                throw new IOException("a " + status + " response has no body");
            }
            if (phase == Phase.OPEN) {
                if (pendingCount + len <= FIRST_CHUNK_BYTES) {
                    append(b, off, len);
                    return;
                }
                commit(false);
            }
            while (len > 0) {
                int room = Http2Writer.MAX_DATA_FRAME - pendingCount;
                if (room == 0) {
                    sendPending(false);
                    continue;
                }
                int take = Math.min(room, len);
                append(b, off, take);
                off += take;
                len -= take;
            }
        }

        private void append(byte[] b, int off, int len) {
            if (pendingCount + len > pending.length) {
                int size = Math.max(Math.max(256, pending.length * 2), pendingCount + len);
                pending = Arrays.copyOf(pending, Math.min(Math.max(size, pendingCount + len),
                        Math.max(Http2Writer.MAX_DATA_FRAME, FIRST_CHUNK_BYTES)));
            }
            System.arraycopy(b, off, pending, pendingCount, len);
            pendingCount += len;
        }

        /** Commits and pushes every pending byte to the client (server-sent events). */
        @Override
        public void flush() throws IOException {
            if (closed) {
                return;
            }
            if (phase == Phase.OPEN) {
                commit(false);
            }
            if (pendingCount > 0) {
                sendPending(false);
            }
        }

        @Override
        public void close() throws IOException {
            if (closed) {
                return;
            }
            closed = true;
            if (phase == Phase.OPEN && sendWhole()) {
                phase = Phase.FINISHED;
                return;
            }
            if (phase == Phase.OPEN) {
                commit(true);
                if (sender.localEnded(stream)) {
                    phase = Phase.FINISHED;
                    return;
                }
            }
            end();
            phase = Phase.FINISHED;
        }
    }
}
