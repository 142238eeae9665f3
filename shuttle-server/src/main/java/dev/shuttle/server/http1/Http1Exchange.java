package dev.shuttle.server.http1;

import dev.shuttle.server.Cancellation;
import dev.shuttle.server.ClientGoneException;
import dev.shuttle.server.core.Failures;
import dev.shuttle.server.core.LogText;
import dev.shuttle.server.core.ServerConnection;
import dev.shuttle.server.core.ServerContext;
import dev.shuttle.server.io.ConnectionOutput;
import dev.shuttle.server.io.ConnectionInput;
import dev.shuttle.wire.HttpVersion;
import dev.shuttle.wire.http1.BodyDecoder;
import dev.shuttle.wire.http1.BodyFraming;
import dev.shuttle.wire.http1.Http1Exception;
import dev.shuttle.wire.http1.RequestHead;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * One request and its response on a connection: checks the request's framing and limits, runs the handler, finishes
 * the response, and decides whether the connection can carry another request (the unread-body rule). Runs entirely
 * on the connection's virtual thread; not thread-safe.
 */
final class Http1Exchange {
    private static final System.Logger LOG = System.getLogger(Http1Exchange.class.getName());

    /** What the connection does after this exchange. */
    enum Outcome {
        /** Another request may follow. */
        KEEP_ALIVE,
        /** Close now: the request was read to its end, or the connection is broken anyway. */
        CLOSE,
        /** Close, but keep reading for a moment so unread request bytes do not turn our close into a reset. */
        CLOSE_LINGERING
    }

    private static final byte[] CONTINUE = "HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1);

    private final ServerContext context;
    private final ServerConnection connection;
    private final RequestHead head;
    private final ConnectionInput source;
    private final ConnectionOutput output;

    private static final VarHandle WATCH;

    static {
        try {
            WATCH = MethodHandles.lookup().findVarHandle(Http1Exchange.class, "watch", PeerCloseWatch.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The connection's thread, which runs the handler. */
    private final Thread owner = Thread.currentThread();
    /** Made by the first {@link #cancellation()} call, from any thread (set once, by compare-and-set). */
    private volatile PeerCloseWatch watch;
    /** Set by the connection thread when the handler returned; read by any. */
    private volatile boolean handlerDone;

    // Set up once the framing is known; owned by the connection thread.
    private BodyDecoder decoder;
    private RequestBodyStream requestBody;
    private ServerResponse response;
    private boolean continueSent;

    Http1Exchange(ServerContext context, ServerConnection connection, RequestHead head, ConnectionInput source,
                  ConnectionOutput output) {
        this.context = context;
        this.connection = connection;
        this.head = head;
        this.source = source;
        this.output = output;
    }

    Outcome run() throws IOException {
        BodyFraming framing;
        try {
            framing = BodyFraming.ofRequest(head);
        } catch (Http1Exception e) {
            return reject(e.status(), e.getMessage());
        }
        if (framing instanceof BodyFraming.ContentLength length
                && length.length() > context.limits.maxRequestBodyBytes()) {
            // Answered before the handler runs and before any 100 Continue: the client need not send the body.
            return reject(413, "request body of " + length.length() + " bytes exceeds the limit of "
                    + context.limits.maxRequestBodyBytes());
        }
        String expect = head.headers().first("Expect");
        if (expect != null && head.version() == HttpVersion.HTTP_1_1 && !head.expectsContinue()) {
            return reject(417, "unsupported expectation: " + expect);
        }
        decoder = framing.newDecoder(context.http1Limits);
        source.usePerReadTimeout(context.bodyReadMillis);
        requestBody = new RequestBodyStream(this, source, decoder, context.limits.maxRequestBodyBytes());
        ServerRequest request = new ServerRequest(head, framing, decoder, requestBody, connection, this);
        response = new ServerResponse(this, head, output);
        try {
            context.handler.handle(request, response);
        } catch (Throwable t) {
            stopWatching();
            return handlerFailed(t);
        } finally {
            // An interrupt left behind would close the channel at the next blocking I/O on this thread.
            Thread.interrupted();
        }
        stopWatching();
        try {
            response.finish();
        } catch (IOException e) {
            if (output.failure() != null) {
                LOG.log(Level.DEBUG, "connection {0}: response not completed: {1}", connection.id(), e.toString());
                return Outcome.CLOSE;
            }
            return endCommitted(e, false); // the handler's body broke its own framing (a short Content-Length body)
        }
        return afterResponse();
    }

    private Outcome reject(int status, String detail) throws IOException {
        LOG.log(Level.DEBUG, "connection {0}: rejecting {1} {2} with {3}: {4}", connection.id(),
                LogText.excerpt(head.method()), LogText.excerpt(head.target()), status, LogText.excerpt(detail));
        ErrorResponses.write(output, status, detail);
        return Outcome.CLOSE_LINGERING;
    }

    private Outcome handlerFailed(Throwable failure) throws IOException {
        IOException bodyFailure = requestBody.failure();
        boolean fromBody = bodyFailure != null && Failures.causedBy(failure, bodyFailure);
        IOException writeFailure = output.failure();
        if ((writeFailure != null && Failures.causedBy(failure, writeFailure)) || Failures.clientGone(failure)) {
            // The client went away (reset, broken pipe, write timeout), however the handler wrapped it: an ordinary
            // event, and nothing can be answered any more.
            LOG.log(Level.DEBUG, "connection {0}: client went away during the response to {1} {2}: {3}",
                    connection.id(), head.method(), LogText.excerpt(head.target()), failure.toString());
            return Outcome.CLOSE;
        }
        if (response.isCommitted()) {
            return endCommitted(failure, fromBody);
        }
        if (fromBody) {
            if (bodyFailure instanceof Http1Exception http1) {
                return reject(http1.status(), http1.getMessage());
            }
            if (bodyFailure instanceof SocketTimeoutException) {
                return reject(408, "request body stalled for more than " + context.bodyReadMillis + " ms");
            }
            return Outcome.CLOSE; // the client went away while sending
        }
        LOG.log(Level.WARNING, "handler failed on " + head.method() + " " + LogText.excerpt(head.target()), failure);
        ErrorResponses.write(output, 500, null);
        return requestBodyComplete() ? Outcome.CLOSE : Outcome.CLOSE_LINGERING;
    }

    /**
     * The handler failed, or its body broke its own framing, after the head was committed: what was written goes out
     * and the connection closes after it, so the client sees a response cut short (a body short of its
     * Content-Length, chunks without the last one), never a complete-looking wrong one. Logged once, at WARNING as a
     * fault of the handler, unless the client broke the exchange (its upload failed).
     */
    private Outcome endCommitted(Throwable failure, boolean clientFault) {
        LOG.log(clientFault ? Level.DEBUG : Level.WARNING, "connection " + connection.id() + ": handler failed after"
                + " committing the response to " + head.method() + " " + LogText.excerpt(head.target())
                + "; closing the connection after what was sent", failure);
        try {
            output.flush();
        } catch (IOException e) {
            return Outcome.CLOSE; // the client went away meanwhile
        }
        return requestBodyComplete() ? Outcome.CLOSE : Outcome.CLOSE_LINGERING;
    }


    /** The unread-body rule, after a complete response. */
    private Outcome afterResponse() {
        if (response.closeAfter()) {
            return requestBodyComplete() ? Outcome.CLOSE : Outcome.CLOSE_LINGERING;
        }
        if (requestBodyComplete()) {
            return Outcome.KEEP_ALIVE;
        }
        if (requestBody.failure() != null || (head.expectsContinue() && !continueSent)) {
            return Outcome.CLOSE_LINGERING;
        }
        try {
            requestBody.discardRest(context.limits.unreadBodyDiscardBytes());
        } catch (IOException e) {
            return Outcome.CLOSE;
        }
        return requestBodyComplete() ? Outcome.KEEP_ALIVE : Outcome.CLOSE_LINGERING;
    }

    // ---- the request's cancellation ----

    /** The request's signal, made (and the peer-close watch set up) when first asked for; any thread. */
    Cancellation cancellation() {
        PeerCloseWatch current = watch;
        if (current == null) {
            PeerCloseWatch made = new PeerCloseWatch(connection, Cancellation.create(), owner);
            if (WATCH.compareAndSet(this, null, made)) {
                output.gate(made);
                current = made;
            } else {
                current = watch;
            }
        }
        if (Thread.currentThread() == owner && !handlerDone && decoder.isComplete()) {
            current.arm();
        }
        return current.cancellation();
    }

    /** The handler read the request body to its end: from now on a close from the client can be seen at once. */
    void requestBodyEnded() {
        PeerCloseWatch current = watch;
        if (current != null && !handlerDone) {
            current.arm();
        }
    }

    /** A body read failed because the connection did (reset, end of stream): the client went away. */
    void clientWentAway(ClientGoneException gone) {
        PeerCloseWatch current = watch;
        if (current != null) {
            current.cancellation().cancel(gone);
        }
    }

    /** The connection closed (from any thread, shutdown's included) while this exchange ran. */
    void connectionClosed() {
        clientWentAway(new ClientGoneException("the connection closed"));
    }

    /** The handler returned: the channel comes back from the watch, with any bytes of the next request it read. */
    private void stopWatching() {
        handlerDone = true;
        PeerCloseWatch current = watch;
        if (current == null) {
            return;
        }
        ByteBuffer next = current.stop();
        output.gate(null);
        if (next != null) {
            source.unread(next);
            context.buffers.release(next);
        }
    }

    // ---- called by the request body and the response ----

    boolean requestBodyComplete() {
        return decoder.isComplete();
    }

    /**
     * Called before the handler's first read of the body: sends {@code 100 Continue} when the client waits for it
     * (HTTP/1.1 only, RFC 9110 10.1.1) and no final response went out yet.
     */
    void beforeFirstBodyRead() throws IOException {
        if (head.expectsContinue() && head.version() == HttpVersion.HTTP_1_1 && !continueSent
                && !response.isCommitted() && !decoder.isComplete()) {
            continueSent = true;
            output.write(CONTINUE);
            output.flush();
        }
    }

    /**
     * Whether the response being committed must say {@code Connection: close}: the client or shutdown asked for it,
     * or the request body is in a state that forbids reading the next request (failed, a 100 Continue never sent,
     * or more left than the server will discard).
     */
    boolean mustCloseAtCommit() {
        if (!head.keepAlive() || context.draining()) {
            return true;
        }
        if (decoder.isComplete()) {
            return false;
        }
        if (requestBody.failure() != null || (head.expectsContinue() && !continueSent)) {
            return true;
        }
        return decoder.remainingLength() > context.limits.unreadBodyDiscardBytes();
    }

    long connectionId() {
        return connection.id();
    }
}
