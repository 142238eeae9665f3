package dev.shuttle.server.http1;

import dev.shuttle.server.core.StatusText;
import dev.shuttle.server.core.HttpDate;
import dev.shuttle.server.Response;
import dev.shuttle.server.io.ConnectionOutput;
import dev.shuttle.wire.Headers;
import dev.shuttle.wire.HttpVersion;
import dev.shuttle.wire.http1.ChunkedBodyOutputStream;
import dev.shuttle.wire.http1.FixedLengthBodyOutputStream;
import dev.shuttle.wire.http1.Http1HeadWriter;
import dev.shuttle.wire.http1.RequestHead;
import dev.shuttle.wire.http1.ResponseHead;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.System.Logger.Level;
import java.nio.channels.FileChannel;

/**
 * An HTTP/1 response: collects status and headers, chooses the framing when it commits, and ends the body.
 *
 * <p>Lifecycle: OPEN (status and headers may change) → COMMITTED (head written; the body streams) → FINISHED (body
 * ended and flushed). Commit happens when the body outgrows {@link #FIRST_CHUNK_BYTES}, on {@link #flush()}, or when
 * the handler returns; at that point the framing is chosen (see {@link Response}). Owned by the connection thread.
 */
final class ServerResponse implements Response {
    private static final System.Logger LOG = System.getLogger(ServerResponse.class.getName());

    /** Bodies up to this size, complete when the handler returns, get a Content-Length instead of chunks. */
    static final int FIRST_CHUNK_BYTES = 8 * 1024;

    private enum Phase { OPEN, COMMITTED, FINISHED }

    private enum Framing { NONE, FIXED, CHUNKED, CLOSE_DELIMITED }

    private final Http1Exchange exchange;
    private final RequestHead request;
    private final ConnectionOutput output;

    private int status = 200;
    private final Headers.Builder headers = Headers.builder();
    private long contentLength = -1;
    private Headers trailers;
    private Phase phase = Phase.OPEN;
    private ResponseBodyStream body;

    // Chosen at commit.
    private Framing framing;
    private boolean closeAfter;
    private ChunkedBodyOutputStream chunked;
    private FixedLengthBodyOutputStream fixed;

    ServerResponse(Http1Exchange exchange, RequestHead request, ConnectionOutput output) {
        this.exchange = exchange;
        this.request = request;
        this.output = output;
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
        if (!framingHeader(name, value)) {
            headers.set(name, value);
        }
        return this;
    }

    @Override
    public Response addHeader(String name, String value) {
        checkOpen();
        if (!framingHeader(name, value)) {
            headers.add(name, value);
        }
        return this;
    }

    /** Content-Length set as a header means {@link #contentLength(long)}; Transfer-Encoding is the server's. */
    private boolean framingHeader(String name, String value) {
        if (name.equalsIgnoreCase("Content-Length")) {
            long length;
            try {
                length = Long.parseLong(value.strip());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("invalid Content-Length: " + value);
            }
            contentLength(length);
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
            body = new ResponseBodyStream(this);
        }
        return body;
    }

    /** As {@link Response#send(byte[])} promises, without staging the body in the first-chunk buffer. */
    @Override
    public void send(byte[] body) throws IOException {
        ResponseBodyStream stream = (ResponseBodyStream) body();
        if (!isCommitted() && !stream.hasWritten()) {
            contentLength(body.length);
        }
        stream.writeWholeAndClose(body);
    }

    /** Zero-copy when the body has a declared length on plaintext; HEAD sends nothing; else copied through body(). */
    @Override
    public void writeFile(FileChannel file, long position, long count) throws IOException {
        ((ResponseBodyStream) body()).commitForTransfer();
        if (framing == Framing.NONE) {
            return; // HEAD, 204, 304: the body a GET would get is not sent
        }
        if (framing == Framing.FIXED && output.transfersFiles()) {
            fixed.reserve(count);
            output.transferFrom(file, position, count);
            return;
        }
        Response.super.writeFile(file, position, count);
    }

    @Override
    public void flush() throws IOException {
        ((ResponseBodyStream) body()).flush();
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

    // ---- used by the exchange and the body stream ----

    /** Whether the connection must close after this response; valid once committed. */
    boolean closeAfter() {
        return closeAfter;
    }

    boolean bodyAllowed() {
        return StatusText.allowsBody(status);
    }

    /** Called by the handler's return: commits if needed, ends the body and flushes everything. */
    void finish() throws IOException {
        if (phase == Phase.FINISHED) {
            return;
        }
        ((ResponseBodyStream) body()).close();
        output.flush();
        phase = Phase.FINISHED;
    }

    /**
     * Chooses the framing and writes the head.
     *
     * @param complete      the body is complete ({@code bufferedBytes} is all of it)
     * @param bufferedBytes body bytes written so far, not yet sent
     */
    void commit(boolean complete, int bufferedBytes) throws IOException {
        checkOpen();
        phase = Phase.COMMITTED;
        boolean headRequest = "HEAD".equals(request.method());
        boolean http10 = request.version() == HttpVersion.HTTP_1_0;
        Headers handlerHeaders = headers.build();
        Headers.Builder out = handlerHeaders.toBuilder();
        closeAfter = exchange.mustCloseAtCommit() || handlerHeaders.containsToken("Connection", "close");
        if (!bodyAllowed()) {
            framing = Framing.NONE;
            if (status == 304 && contentLength >= 0) {
                out.set("Content-Length", Long.toString(contentLength)); // describes the selected representation
            }
        } else if (contentLength >= 0) {
            out.set("Content-Length", Long.toString(contentLength));
            framing = headRequest ? Framing.NONE : Framing.FIXED;
        } else if (complete && trailers == null) {
            // A HEAD handler that wrote nothing may not know the length; claiming 0 would be wrong (as in Go).
            if (!headRequest || bufferedBytes > 0) {
                out.set("Content-Length", Integer.toString(bufferedBytes));
            }
            framing = headRequest ? Framing.NONE : Framing.FIXED;
            contentLength = bufferedBytes;
        } else if (headRequest) {
            framing = Framing.NONE;
        } else if (!http10) {
            out.set("Transfer-Encoding", "chunked");
            framing = Framing.CHUNKED;
        } else {
            framing = Framing.CLOSE_DELIMITED; // HTTP/1.0 has no chunked coding: the close ends the body
            closeAfter = true;
        }
        if (closeAfter) {
            out.set("Connection", "close");
        } else if (http10) {
            out.set("Connection", "keep-alive");
        }
        if (!handlerHeaders.contains("Date")) {
            out.add("Date", HttpDate.now());
        }
        output.write(Http1HeadWriter.encode(
                new ResponseHead(HttpVersion.HTTP_1_1, status, StatusText.reason(status), out.build())));
        switch (framing) {
            case FIXED -> fixed = new FixedLengthBodyOutputStream(output, contentLength);
            case CHUNKED -> chunked = new ChunkedBodyOutputStream(output);
            case NONE, CLOSE_DELIMITED -> {
            }
        }
    }

    /** Writes committed body bytes through the chosen framing. */
    void writeFramed(byte[] b, int off, int len) throws IOException {
        switch (framing) {
            case NONE -> {
                // HEAD: the handler may write the body a GET would get; it is not sent
            }
            case FIXED -> fixed.write(b, off, len);
            case CHUNKED -> chunked.write(b, off, len);
            case CLOSE_DELIMITED -> output.write(b, off, len);
        }
    }

    /** Ends the body's framing: the last chunk and trailers, or the Content-Length check. */
    void endBody() throws IOException {
        switch (framing) {
            case FIXED -> fixed.close();
            case CHUNKED -> chunked.finish(trailers == null ? Headers.EMPTY : trailers);
            case NONE, CLOSE_DELIMITED -> {
            }
        }
        if (trailers != null && !trailers.isEmpty() && framing != Framing.CHUNKED) {
            LOG.log(Level.DEBUG, "connection {0}: trailers dropped, the response is not chunked",
                    exchange.connectionId());
        }
    }

    void flushOutput() throws IOException {
        output.flush();
    }
}
