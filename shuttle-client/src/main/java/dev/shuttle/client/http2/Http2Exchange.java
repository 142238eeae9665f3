package dev.shuttle.client.http2;

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
import dev.shuttle.wire.Headers;
import dev.shuttle.wire.HttpVersion;
import dev.shuttle.wire.http2.Http2ErrorCode;
import dev.shuttle.wire.http2.Http2Fields;
import dev.shuttle.wire.http2.Http2RequestHead;
import dev.shuttle.wire.http2.Http2ResponseHead;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * One request on one stream of an {@link Http2Connection}: queues its HEADERS and body, waits for the response head,
 * then hands the stream to the body. Runs on the calling thread, which only ever waits on conditions (an interrupt
 * resets this stream, never the connection); {@link #abort} may come from any thread and touches this stream only.
 *
 * <p>Owns its stream's lease until {@link #openBody} passes it to the body or {@link #fail} releases it.
 */
final class Http2Exchange implements ExchangeCodec {
    /** One stream in this many on a reused connection samples its round trip for the cost model. */
    static final int ROUND_TRIP_SAMPLING = 16;

    private final Lease lease;
    private final Http2Connection connection;
    private final Request request;
    private final ClientSettings settings;
    private final ExchangeContext context;
    private final ClientTrace trace;
    private final LongSupplier clock;
    private final Http2Stream stream;
    /** Owned by the calling thread. */
    private boolean responseStarted;
    /** The stream's id, read under the lock with the head. Owned by the calling thread. */
    private int streamId;
    /** The head came with END_STREAM and no body byte: the body is over before it opens. Calling thread. */
    private boolean bodyEndedEmpty;
    /** Why the exchange was aborted (call timeout), possibly refined with what it was waiting for. */
    private volatile IOException abortReason;

    Http2Exchange(Lease lease, Http2Connection connection, Request request, ExchangeContext context) {
        this.lease = lease;
        this.connection = connection;
        this.request = request;
        this.settings = context.settings();
        this.context = context;
        this.trace = context.trace();
        this.clock = settings.nanoClock();
        this.stream = connection.newStream();
        this.stream.noBody = request.method().equals("HEAD");
    }

    @Override
    public ResponseStart send() throws IOException {
        long writeStart = clock.getAsLong();
        BodyPublisher body = request.body();
        boolean hasBody = body != BodyPublisher.none() && body.contentLength() != 0;
        connection.open(stream, fields(body), !hasBody);
        trace.wroteHeaders();
        boolean stopped = false; // the server answered first: the body did not go out whole
        try {
            if (hasBody && (!ClientFields.expectsContinue(request) || awaitContinue())) {
                try (Http2Upload out = new Http2Upload(connection, stream, this, context.scheduler(),
                        ClientSettings.nanos(settings.writeTimeout()))) {
                    try {
                        body.writeTo(out);
                        out.finish(body.contentLength());
                    } catch (Http2Upload.Refused refused) {
                        // the server answered first: its answer is what the caller gets
                    }
                    stopped = out.stopped();
                }
            } else {
                stopped = hasBody;
            }
            if (trace != ClientTrace.NONE && !stopped) {
                awaitEndWritten(); // wroteRequest must come after the write; without a trace, go on to the head
            }
        } catch (IOException e) {
            trace.wroteRequest(e);
            throw e;
        }
        trace.wroteRequest(stopped ? new IOException("the request body was not sent whole: the server answered"
                + " first") : null);
        Http2ResponseHead head = awaitHead(writeStart);
        return new ResponseStart(head.status(), "", HttpVersion.HTTP_2, head.headers(), streamId);
    }

    /**
     * The request's fields: pseudo-headers, the caller's fields, user-agent, content-length. The two added fields go
     * straight onto the end of the list (lower case, as {@link Http2Fields} would make them) rather than through a
     * copy of the caller's headers; only a request with a {@code Connection} field, which may name them, takes the
     * long way.
     */
    private List<String> fields(BodyPublisher body) {
        Headers given = request.headers();
        String userAgent = settings.userAgent() != null && !given.contains("User-Agent") ? settings.userAgent() : null;
        String contentLength = null;
        if (body == BodyPublisher.none()) {
            if (sendsBody(request.method())) {
                contentLength = "0";
            }
        } else if (body.contentLength() >= 0) {
            contentLength = Long.toString(body.contentLength());
        }
        String contentType = ClientFields.contentType(request);
        boolean compression = ClientFields.requestsCompression(settings, request);
        boolean expect = ClientFields.addsExpect(request);
        String authority = request.origin().equals(connection.origin()) ? connection.authority()
                : request.origin().authority();
        List<String> fields;
        if (given.contains("Connection")) {
            Headers.Builder headers = given.toBuilder();
            if (userAgent != null) {
                headers.add("user-agent", userAgent);
            }
            if (contentLength != null) {
                headers.add("content-length", contentLength);
            }
            if (contentType != null) {
                headers.add("content-type", contentType);
            }
            if (compression) {
                headers.add("accept-encoding", ClientFields.ACCEPT_ENCODING);
            }
            if (expect) {
                headers.add("expect", "100-continue");
            }
            fields = Http2Fields.request(new Http2RequestHead(request.method(), request.origin().scheme(),
                    authority, request.target(), headers.build()));
        } else {
            fields = Http2Fields.request(new Http2RequestHead(request.method(), request.origin().scheme(),
                    authority, request.target(), given));
            if (userAgent != null) {
                fields.add("user-agent");
                fields.add(Http2Fields.trimWhitespace(userAgent));
            }
            if (contentLength != null) {
                fields.add("content-length");
                fields.add(contentLength);
            }
            if (contentType != null) {
                fields.add("content-type");
                fields.add(Http2Fields.trimWhitespace(contentType));
            }
            if (compression) {
                fields.add("accept-encoding");
                fields.add(ClientFields.ACCEPT_ENCODING);
            }
            if (expect) {
                fields.add("expect");
                fields.add("100-continue");
            }
        }
        for (String text : fields) {
            for (int i = 0; i < text.length(); i++) {
                if (text.charAt(i) > 0xff) {
                    throw new IllegalArgumentException("header text beyond Latin-1 cannot be sent: " + text);
                }
            }
        }
        return fields;
    }

    /**
     * POST, PUT and PATCH, which announce an empty body with {@code content-length: 0}. A switch: a {@code Set.of}
     * lookup per request showed in profiles at 1% of the client's CPU.
     */
    private static boolean sendsBody(String method) {
        return switch (method) {
            case "POST", "PUT", "PATCH" -> true;
            default -> false;
        };
    }

    /**
     * {@code Expect: 100-continue}: waits for the server's {@code 100 Continue} (or another interim answer), a final
     * answer, or the client's {@code expectContinueTimeout}, whichever comes first.
     *
     * @return whether to send the body: yes after an interim answer, the timeout or a 2xx; no after a final answer
     *         above 299 or when the stream ended
     */
    private boolean awaitContinue() throws IOException {
        long timeout = ClientSettings.nanos(settings.expectContinueTimeout());
        long deadline = timeout == Long.MAX_VALUE ? Deadline.NONE : Deadline.after(clock.getAsLong(), timeout);
        connection.lock.lock();
        try {
            while (true) {
                if (stream.failure != null) {
                    throw failure();
                }
                if (stream.head != null) {
                    return stream.head.status() <= 299;
                }
                if (stream.interimHeads > 0) {
                    return true;
                }
                if (stream.isClosed()) {
                    return false;
                }
                long now = clock.getAsLong();
                if (deadline != Deadline.NONE && now >= deadline) {
                    return true; // a server that ignores the expectation still gets the body
                }
                connection.deadlines.addLocked(stream, deadline, now, context.scheduler());
                try {
                    stream.changed.await();
                } catch (InterruptedException e) {
                    InterruptedIOException interrupted = new InterruptedIOException("interrupted while waiting for"
                            + " 100 Continue");
                    connection.streams.resetLocked(stream, Http2ErrorCode.CANCEL, interrupted);
                    Thread.currentThread().interrupt();
                    throw interrupted;
                } finally {
                    connection.deadlines.removeLocked(stream);
                }
            }
        } finally {
            connection.lock.unlock();
        }
    }

    /**
     * Waits until the frame with END_STREAM left (or the stream ended otherwise), for the trace's
     * {@code wroteRequest}. That costs the caller a wake-up, so only traced calls wait: the others wait for the head
     * at once, which cannot come before the request left, and a stream that fails before it left fails that wait.
     */
    private void awaitEndWritten() throws IOException {
        connection.lock.lock();
        try {
            while (!stream.endWritten && stream.failure == null && !stream.isClosed()) {
                stream.sendWaiting = true;
                try {
                    await(Deadline.NONE, null);
                } finally {
                    stream.sendWaiting = false;
                }
            }
            if (stream.failure != null) {
                throw failure();
            }
        } finally {
            connection.lock.unlock();
        }
    }

    private Http2ResponseHead awaitHead(long writeStart) throws IOException {
        Duration headerTimeout = settings.responseHeaderTimeout();
        long headDeadline = headerTimeout == null ? Deadline.NONE
                : Deadline.after(clock.getAsLong(), headerTimeout.toNanos());
        Http2ResponseHead head;
        connection.lock.lock();
        try {
            while (true) {
                if (!responseStarted && stream.interimHeads > 0 && stream.head == null) {
                    responseStarted = true;
                    firstByte(writeStart, stream.id); // an interim head: now, while the final one is awaited
                }
                if (stream.head != null) {
                    streamId = stream.id;
                    bodyEndedEmpty = stream.remoteEnd && stream.body.buffered() == 0; // stays so: nothing comes after
                    head = stream.head;
                    break;
                }
                if (stream.failure != null) {
                    throw failure();
                }
                if (stream.isClosed()) {
                    throw new IOException("stream closed without a response");
                }
                await(headDeadline, HttpTimeoutException.Kind.RESPONSE_HEADERS);
            }
        } finally {
            connection.lock.unlock();
        }
        if (!responseStarted) {
            responseStarted = true;
            firstByte(writeStart, streamId); // outside the connection's lock: a trace hook and the cost model's lock
        }
        return head;
    }

    /**
     * One wait on the stream's condition (lock held), bounded by {@code deadline} and the read timeout. Expiry or an
     * interrupt resets the stream and throws. The wait itself is untimed: the connection's {@link WaitDeadlines}
     * wakes it when the deadline passes (a timed park per wait costs the JDK's delay scheduler two wake-ups).
     */
    void await(long deadline, HttpTimeoutException.Kind kind) throws IOException {
        Duration readTimeout = settings.readTimeout(request);
        long readNanos = readTimeout == null ? Deadline.NONE : readTimeout.toNanos();
        long now = clock.getAsLong();
        long readDeadline = Deadline.after(now, readNanos);
        long until = Math.min(readDeadline, deadline);
        if (until > now) {
            connection.deadlines.addLocked(stream, until, now, context.scheduler());
            try {
                stream.changed.await();
            } catch (InterruptedException e) {
                InterruptedIOException interrupted = new InterruptedIOException("interrupted during " + request);
                connection.streams.resetLocked(stream, Http2ErrorCode.CANCEL, interrupted);
                Thread.currentThread().interrupt();
                throw interrupted;
            } finally {
                connection.deadlines.removeLocked(stream);
            }
            if (until == Deadline.NONE || clock.getAsLong() < until) {
                return; // woken before the deadline: the caller looks again
            }
        }
        if (until == readDeadline && (deadline == Deadline.NONE || clock.getAsLong() < deadline)) {
            HttpTimeoutException timeout = new HttpTimeoutException(HttpTimeoutException.Kind.READ,
                    "no response byte for " + readTimeout.toMillis() + " ms");
            connection.streams.resetLocked(stream, Http2ErrorCode.CANCEL, timeout);
            throw timeout;
        }
        if (clock.getAsLong() >= deadline) {
            HttpTimeoutException timeout = new HttpTimeoutException(kind, "response headers did not arrive in time");
            connection.streams.resetLocked(stream, Http2ErrorCode.CANCEL, timeout);
            throw timeout;
        }
    }

    /** The stream's failure as the caller should see it: the abort reason when the call timed out. */
    private IOException failure() {
        IOException reason = abortReason;
        return reason != null ? reason : stream.failure;
    }

    /**
     * The first response byte: the trace, and a sample for the origin's cost model. On a reused connection only one
     * stream in {@link #ROUND_TRIP_SAMPLING} reports its round trip: every exchange of the origin competes for the
     * model's lock (a third of the lock releases on a busy connection were these), while the model keeps the median
     * of just the last nine samples, which HTTP/1.1's hand-off rule uses; an HTTP/2 origin's requests never consult
     * it.
     */
    private void firstByte(long writeStart, int id) {
        trace.gotFirstResponseByte();
        if (lease.freshFromDial()) {
            lease.costs().recordFreshFirstByte(clock.getAsLong() - lease.dialStartNanos());
        } else if (lease.reused() && (id >>> 1) % ROUND_TRIP_SAMPLING == 0) {
            lease.costs().recordReusedFirstByte(clock.getAsLong() - writeStart);
        }
    }

    @Override
    public ResponseBody openBody(ResponseStart head, Runnable onSettled) {
        Http2Body body = new Http2Body(lease, connection, stream, this, trace, context.stats(), onSettled,
                bodyEndedEmpty);
        return new ResponseBody(body);
    }

    @Override
    public boolean responseStarted() {
        return responseStarted;
    }

    /** Resets the stream (if still open) and gives the lease back; the connection stays for the others. */
    @Override
    public void fail(IOException cause) {
        connection.lock.lock();
        try {
            connection.streams.resetLocked(stream, Http2ErrorCode.CANCEL, cause);
        } finally {
            connection.lock.unlock();
        }
        if (!lease.isReleased()) {
            lease.release(connection.isHealthy());
        }
    }

    /**
     * The call timed out: reset this stream and wake its waiting thread. A thread waiting for flow-control credit or
     * room in the writer's queue is told that the server stopped reading.
     */
    @Override
    public void abort(IOException reason) {
        connection.lock.lock();
        try {
            if (abortReason == null) {
                abortReason = reason;
            }
            if (stream.isClosed() && stream.remoteEnd) {
                return; // answered in full: nothing to stop
            }
            connection.streams.resetLocked(stream, Http2ErrorCode.CANCEL, reason);
            stream.changed.signalAll();
        } finally {
            connection.lock.unlock();
        }
    }

    /**
     * Called by the body stream when the abort came while it waited for room or credit: the reason then says what it
     * waited for ({@code waitedFor}: the bytes sent and what did not come).
     */
    void abortedWhileSending(String waitedFor) {
        if (abortReason instanceof HttpTimeoutException timeout) {
            abortReason = new HttpTimeoutException(timeout.kind(), "call timed out while sending the request body "
                    + waitedFor);
        }
    }

    @Override
    public IOException abortReason() {
        return abortReason;
    }

    @Override
    public boolean unprocessed() {
        connection.lock.lock();
        try {
            return stream.unprocessed && !responseStarted;
        } finally {
            connection.lock.unlock();
        }
    }

    Http2Stream stream() {
        return stream;
    }
}
