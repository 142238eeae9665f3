package dev.shuttle.client.http1;

import dev.shuttle.client.BodyPublisher;
import dev.shuttle.client.ClientTrace;
import dev.shuttle.client.HttpTimeoutException;
import dev.shuttle.client.Request;
import dev.shuttle.client.exchange.ClientFields;
import dev.shuttle.client.exchange.ExchangeCodec;
import dev.shuttle.client.exchange.ExchangeContext;
import dev.shuttle.client.exchange.ResponseBody;
import dev.shuttle.client.exchange.ResponseStart;
import dev.shuttle.client.internal.ClientSettings;
import dev.shuttle.client.internal.Deadline;
import dev.shuttle.client.pool.Lease;
import dev.shuttle.client.proxy.ProxyServer;
import dev.shuttle.wire.Headers;
import dev.shuttle.wire.HttpVersion;
import dev.shuttle.wire.http1.BodyDecoder;
import dev.shuttle.wire.http1.BodyFraming;
import dev.shuttle.wire.http1.ChunkedBodyOutputStream;
import dev.shuttle.wire.http1.FixedLengthBodyOutputStream;
import dev.shuttle.wire.http1.Http1HeadWriter;
import dev.shuttle.wire.http1.RequestHead;
import dev.shuttle.wire.http1.ResponseHead;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * One request and the head of its response on a leased HTTP/1.1 connection: writes the request, reads the response
 * head (skipping interim 1xx heads), then hands the connection to the response body. Runs on the calling thread.
 *
 * <p>Owns the lease until {@link #openBody} passes it to the body, or {@link #fail} releases it.
 */
final class Http1Exchange implements ExchangeCodec {
    /** Methods whose requests carry a body by definition: an empty one is sent as Content-Length: 0, as Go does. */
    private static final Set<String> BODY_METHODS = Set.of("POST", "PUT", "PATCH");
    /**
     * Interim (1xx) responses accepted before the final one: Go's client fails after 5 ("too many 1xx informational
     * responses"). A real server sends one 100 Continue, maybe a 103 Early Hints; a server sending them forever
     * would otherwise keep the call alive past every read timeout.
     */
    static final int MAX_INTERIM_RESPONSES = 5;
    /**
     * A request head up to this size is written without a write timer: the kernel's send buffer (16 KiB at least on
     * Linux, macOS and Windows) takes it whole, so the write cannot block, and the common GET pays for no timer.
     */
    private static final int UNGUARDED_WRITE_BYTES = 16 * 1024;

    private final Lease lease;
    private final Http1Connection connection;
    private final Request request;
    private final ClientSettings settings;
    private final ExchangeContext context;
    private final ClientTrace trace;
    private final LongSupplier clock;
    /** Owned by the calling thread. */
    private boolean responseStarted;
    /** The final head, once read; owned by the calling thread. */
    private ResponseHead head;
    /** The body on its way on a thread of its own, or null when this thread wrote the whole request. */
    private Upload upload;
    /** The body, once it took the lease; written by the calling thread, read by the call timer. */
    private volatile Http1Body body;
    /** A write here failed after the server had answered: the request never went out whole. Calling thread. */
    private boolean requestIncomplete;

    Http1Exchange(Lease lease, Http1Connection connection, Request request, ExchangeContext context) {
        this.lease = lease;
        this.connection = connection;
        this.request = request;
        this.settings = context.settings();
        this.context = context;
        this.trace = context.trace();
        this.clock = settings.nanoClock();
    }

    @Override
    public boolean responseStarted() {
        return responseStarted;
    }

    @Override
    public ResponseStart send() throws IOException {
        long writeStart = clock.getAsLong();
        ResponseHead head;
        try {
            head = writeRequest(writeStart);
            if (head == null) {
                head = readHead(writeStart, false);
            }
        } catch (IOException e) {
            if (upload != null && upload.failedInBody()) {
                IOException bodyFailure = upload.failure(); // the body publisher's own error, the call's cause
                bodyFailure.addSuppressed(e);
                throw bodyFailure;
            }
            throw e;
        }
        this.head = head;
        return new ResponseStart(head.status(), head.reason(), head.version(), head.headers());
    }

    /**
     * Writes the request: here when it cannot block for long (no body, or a small one), else through an
     * {@link Upload} on a thread of its own while this thread reads the head.
     *
     * @return the response head when a write here failed on the socket and the server's answer was already there
     *         (it closed after answering early), else null: read the head next
     */
    private ResponseHead writeRequest(long writeStart) throws IOException {
        BodyPublisher body = request.body();
        long length = body.contentLength();
        boolean hasBody = body != BodyPublisher.none();
        Headers given = request.headers();
        boolean plain = given.isEmpty() && !hasBody && !BODY_METHODS.contains(request.method());
        Headers fields = plain ? plainFields() : fields(given, hasBody, length);
        // Through a proxy, plain http requests name their origin in the target: the absolute form (RFC 9112 3.2.2).
        String target = connection.forwardProxy() == null ? request.target()
                : request.origin().scheme() + "://" + request.origin().authority() + request.target();
        byte[] head = plain ? connection.plainHead(request.method(), target, fields)
                : Http1HeadWriter.encode(new RequestHead(request.method(), target, HttpVersion.HTTP_1_1, fields));
        boolean expectContinue = ClientFields.expectsContinue(request);
        if (hasBody && (expectContinue || length < 0 || length + head.length > UNGUARDED_WRITE_BYTES)) {
            upload = Upload.start(connection, lease, trace, head, body, length, expectContinue,
                    ClientSettings.nanos(settings.expectContinueTimeout()), this::startWriteGuard, clock);
            return null;
        }
        WriteGuard guard = head.length > UNGUARDED_WRITE_BYTES ? startWriteGuard() : null;
        try {
            if (!hasBody) {
                // The head is the whole request: one write, straight from its array, no buffer to borrow.
                connection.transport().write(head, 0, head.length);
                trace.wroteHeaders();
            } else {
                writeWithBody(head, body, length);
            }
        } catch (SocketWriteException e) {
            trace.wroteRequest(e.getCause());
            ResponseHead answer = readHead(writeStart, true);
            if (answer == null) {
                throw e.getCause();
            }
            requestIncomplete = true; // the server has the start of a request it will never see the end of
            return answer;
        } catch (IOException e) {
            trace.wroteRequest(e);
            throw e;
        } finally {
            if (guard != null) {
                guard.cancel();
            }
        }
        trace.wroteRequest(null);
        return null;
    }

    /** The write timeout's watchdog for this request, or null without a write timeout. */
    private WriteGuard startWriteGuard() {
        return settings.writeTimeout() == null ? null : WriteGuard.start(context.scheduler(), connection.transport(),
                lease, clock, ClientSettings.nanos(settings.writeTimeout()));
    }

    /** Host, the caller's fields, then User-Agent, Connection and the body's framing as the client adds them. */
    private Headers fields(Headers given, boolean hasBody, long length) {
        Headers.Builder fields = Headers.builder();
        fields.add("Host", connection.hostHeader());
        for (int i = 0; i < given.size(); i++) {
            fields.add(given.name(i), given.value(i));
        }
        if (settings.userAgent() != null && !given.contains("User-Agent")) {
            fields.add("User-Agent", settings.userAgent());
        }
        if (ClientFields.requestsCompression(settings, request)) {
            fields.add("Accept-Encoding", ClientFields.ACCEPT_ENCODING);
        }
        String contentType = ClientFields.contentType(request);
        if (contentType != null) {
            fields.add("Content-Type", contentType);
        }
        if (!settings.keepAlive() && !given.containsToken("Connection", "close")) {
            fields.add("Connection", "close");
        }
        ProxyServer proxy = connection.forwardProxy();
        if (proxy != null && proxy.authorization() != null && !given.contains("Proxy-Authorization")) {
            fields.add("Proxy-Authorization", proxy.authorization());
        }
        if (ClientFields.addsExpect(request)) {
            fields.add("Expect", "100-continue");
        }
        if (!hasBody) {
            if (BODY_METHODS.contains(request.method())) {
                fields.add("Content-Length", "0");
            }
        } else if (length >= 0) {
            fields.add("Content-Length", Long.toString(length));
        } else {
            fields.add("Transfer-Encoding", "chunked");
        }
        return fields.build();
    }

    /**
     * The fields of a request with no headers of its own and no body (most GETs): the same for every such request on
     * this connection, whose client settings never change, so built and checked once per connection. HEAD asks for
     * no compression, so its fields are built each time.
     */
    private Headers plainFields() {
        if (request.method().equals("HEAD")) {
            return fields(Headers.EMPTY, false, 0);
        }
        Headers cached = connection.plainRequestFields();
        if (cached == null) {
            cached = fields(Headers.EMPTY, false, 0);
            connection.plainRequestFields(cached);
        }
        return cached;
    }

    /**
     * Head and body through a buffer borrowed for the write, so the head and a small body leave together.
     *
     * @throws SocketWriteException when the socket failed (the server may have answered and closed), as its cause
     */
    private void writeWithBody(byte[] head, BodyPublisher body, long length) throws IOException {
        try (RequestOutputStream out = new RequestOutputStream(connection.transport(), connection.buffers())) {
            try {
                out.write(head);
                trace.wroteHeaders();
                writeFramed(body, length, out);
                out.flush();
            } catch (IOException e) {
                throw out.socketFailed() ? new SocketWriteException(e) : e;
            }
        }
    }

    /**
     * Writes {@code body} in its framing: exactly {@code length} bytes (an error when the publisher writes fewer or
     * more), or chunked when the length is unknown (-1). Does not flush.
     */
    static void writeFramed(BodyPublisher body, long length, OutputStream out) throws IOException {
        if (length >= 0) {
            FixedLengthBodyOutputStream fixed = new FixedLengthBodyOutputStream(out, length);
            body.writeTo(fixed);
            fixed.close(); // throws when the publisher wrote fewer bytes than it declared
        } else {
            ChunkedBodyOutputStream chunked = new ChunkedBodyOutputStream(out);
            body.writeTo(chunked);
            chunked.finish(Headers.EMPTY);
        }
    }

    /** A socket write of the request failed: distinct from the body publisher's own failures. */
    private static final class SocketWriteException extends IOException {
        SocketWriteException(IOException cause) {
            super(cause.getMessage(), cause);
        }

        @Override
        public synchronized IOException getCause() {
            return (IOException) super.getCause();
        }
    }

    /**
     * Reads the final response head, skipping interim ones (a {@code 100 Continue} releases an upload waiting for it).
     *
     * @param nowOnly read only what has arrived, without blocking: after a failed write, the answer of a server that
     *                answered and closed is already here
     * @return the head; null only with {@code nowOnly}, when no whole head has arrived
     */
    private ResponseHead readHead(long writeStart, boolean nowOnly) throws IOException {
        ConnectionSource source = connection.source();
        source.idleTimeout(ClientSettings.millis(settings.readTimeout(request)));
        source.clearDeadline();
        Duration headerTimeout = settings.responseHeaderTimeout();
        if (headerTimeout != null) {
            source.deadline(Deadline.after(clock.getAsLong(), headerTimeout.toNanos()),
                    HttpTimeoutException.Kind.RESPONSE_HEADERS);
        }
        // Interim heads count against the head limit together, so many small ones cannot add up to more.
        long headStart = source.bytesReceived() - source.buffered();
        int interim = 0;
        try {
            while (true) {
                ResponseHead head = connection.parser().parseResponse(source.buffer());
                if (head != null) {
                    if (head.status() == 101) {
                        throw new IOException("server switched protocols (101), which this client never asks for");
                    }
                    if (!head.isInterim()) {
                        if (upload != null) {
                            upload.finalResponse(head.status());
                        }
                        return head;
                    }
                    if (head.status() == 100 && upload != null) {
                        upload.continueReceived();
                    }
                    // 100 Continue, 103 Early Hints: the final head follows, within bounds.
                    if (++interim > MAX_INTERIM_RESPONSES) {
                        throw new IOException("too many 1xx informational responses: more than "
                                + MAX_INTERIM_RESPONSES + " before the final response (last " + head.status() + ")");
                    }
                    long headBytes = source.bytesReceived() - source.buffered() - headStart;
                    int maxBytes = settings.limits().maxHeaderBytes();
                    if (headBytes > maxBytes) {
                        throw new IOException("1xx informational responses larger than " + maxBytes
                                + " bytes in all (ResponseLimits.maxHeaderBytes) before the final response");
                    }
                    continue;
                }
                int n;
                if (nowOnly) {
                    n = source.fillNow();
                } else {
                    n = responseStarted || uploading() ? 0 : source.lookForResponse();
                    if (n == 0) {
                        n = fillWhileUploading(source);
                    }
                }
                if (n < 0) {
                    throw new IOException(responseStarted
                            ? "connection closed in the middle of the response head"
                            : "connection closed before any response byte");
                }
                if (n == 0 && nowOnly) {
                    return null;
                }
                if (n > 0 && !responseStarted) {
                    responseStarted = true;
                    firstByte(writeStart);
                }
            }
        } finally {
            source.clearDeadline();
        }
    }

    /** Whether the request body is still being sent (the server may be reading it rather than answering). */
    private boolean uploading() {
        return upload != null && upload.endedNanos() == Upload.NOT_ENDED;
    }

    /**
     * One blocking read for the head. While an upload is still going the server may legitimately be silent, reading
     * it: the read and response-header timeouts then count from the upload's end, as they count from the end of the
     * write otherwise (a stalled upload has the write timeout).
     */
    private int fillWhileUploading(ConnectionSource source) throws IOException {
        while (true) {
            try {
                return source.fill();
            } catch (HttpTimeoutException e) {
                if (upload == null || e.kind() == HttpTimeoutException.Kind.CALL) {
                    throw e;
                }
                long ended = upload.endedNanos();
                if (ended == Upload.NOT_ENDED) {
                    continue;
                }
                Duration headerTimeout = settings.responseHeaderTimeout();
                long now = clock.getAsLong();
                if (e.kind() == HttpTimeoutException.Kind.RESPONSE_HEADERS && headerTimeout != null
                        && now - ended < headerTimeout.toNanos()) {
                    source.deadline(Deadline.after(ended, headerTimeout.toNanos()),
                            HttpTimeoutException.Kind.RESPONSE_HEADERS);
                    continue;
                }
                Duration readTimeout = settings.readTimeout(request);
                if (e.kind() == HttpTimeoutException.Kind.READ && readTimeout != null
                        && now - ended < readTimeout.toNanos()) {
                    continue;
                }
                throw e;
            }
        }
    }

    private void firstByte(long writeStart) {
        trace.gotFirstResponseByte();
        long now = clock.getAsLong();
        if (lease.freshFromDial()) {
            lease.costs().recordFreshFirstByte(now - lease.dialStartNanos());
        } else if (lease.reused()) {
            lease.costs().recordReusedFirstByte(now - writeStart);
        }
    }

    @Override
    public ResponseBody openBody(ResponseStart start, Runnable onSettled) throws IOException {
        BodyFraming framing = BodyFraming.ofResponse(request.method(), head);
        BodyDecoder decoder = framing.newDecoder(connection.parser().limits());
        boolean reusable = settings.keepAlive() && head.keepAlive()
                && !request.headers().containsToken("Connection", "close")
                && !(framing instanceof BodyFraming.CloseDelimited);
        Http1Body body = new Http1Body(lease, connection, decoder, reusable && !requestIncomplete, upload,
                context.drainer(), settings.drainPolicy().maxTime(), trace, context.stats(), onSettled);
        this.body = body;
        return new ResponseBody(body);
    }

    @Override
    public void fail(IOException cause) {
        lease.abort(cause);
        if (!lease.isReleased()) {
            lease.release(false);
        }
    }

    /**
     * Before the body took the connection, closes it; after, cancels the body, which keeps the connection when the
     * drain policy can (a call timeout mid-body costs the call, not the connection).
     */
    @Override
    public void abort(IOException reason) {
        Http1Body taken = body;
        if (taken != null) {
            taken.cancel(reason);
        } else {
            lease.abort(reason);
        }
    }

    @Override
    public IOException abortReason() {
        return connection.abortReason();
    }
}
