package dev.shuttle.server.routing;

import dev.shuttle.server.Response;
import dev.shuttle.wire.Headers;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * The response a {@link Timeout}-bounded handler writes: kept in memory (up to a bound) until the handler finishes in
 * time, then copied to the real one. Written by the handler's thread; read by the request's thread after the handler
 * finished; once the time ran out, body writes fail and header changes are dropped.
 */
final class BufferedResponse implements Response {
    private final int maxBytes;
    private final Timeout.Guard guard;
    private int status = 200;
    private final Headers.Builder headers = Headers.builder();
    private long contentLength = -1;
    private Headers trailers;
    private boolean committed;
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final OutputStream body = new OutputStream() {
        private boolean closed;

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            if (guard.timedOut()) {
                throw new IOException("the handler timed out: the client got 503 instead of this response");
            }
            if (closed) {
                throw new IOException("response body closed");
            }
            if (bytes.size() + (long) len > maxBytes) {
                throw new IOException("response body over the " + maxBytes
                        + " bytes a timeout handler buffers: stream it from a handler without Timeout");
            }
            committed = true;
            bytes.write(b, off, len);
        }

        @Override
        public void flush() {
            committed = true;
        }

        @Override
        public void close() {
            closed = true;
            committed = true;
        }
    };

    BufferedResponse(int maxBytes, Timeout.Guard guard) {
        this.maxBytes = maxBytes;
        this.guard = guard;
    }

    private boolean open() {
        if (committed) {
            throw new IllegalStateException("response already committed");
        }
        return !guard.timedOut();
    }

    @Override
    public Response status(int status) {
        if (status < 200 || status > 999) {
            throw new IllegalArgumentException("status must be 200..999, got " + status);
        }
        if (open()) {
            this.status = status;
        }
        return this;
    }

    @Override
    public int status() {
        return status;
    }

    @Override
    public Response header(String name, String value) {
        if (open()) {
            headers.set(name, value);
        }
        return this;
    }

    @Override
    public Response addHeader(String name, String value) {
        if (open()) {
            headers.add(name, value);
        }
        return this;
    }

    @Override
    public Response removeHeader(String name) {
        if (open()) {
            headers.remove(name);
        }
        return this;
    }

    @Override
    public Headers headers() {
        return headers.build();
    }

    @Override
    public Response contentLength(long length) {
        if (length < 0) {
            throw new IllegalArgumentException("negative Content-Length: " + length);
        }
        if (open()) {
            contentLength = length;
        }
        return this;
    }

    @Override
    public Response trailers(Headers trailers) {
        this.trailers = trailers;
        return this;
    }

    @Override
    public OutputStream body() {
        return body;
    }

    @Override
    public void flush() {
        committed = true;
    }

    @Override
    public boolean isCommitted() {
        return committed;
    }

    /** The handler finished in time: sends what it wrote. */
    void copyTo(Response response) throws IOException {
        response.status(status);
        Headers written = headers.build();
        for (int i = 0; i < written.size(); i++) {
            response.addHeader(written.name(i), written.value(i));
        }
        if (contentLength >= 0 && contentLength != bytes.size()) {
            throw new IOException("body of " + bytes.size() + " bytes, Content-Length " + contentLength);
        }
        if (trailers != null) {
            response.trailers(trailers);
        }
        response.send(bytes.toByteArray());
    }
}
