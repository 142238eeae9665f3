package dev.shuttle.server.http2;

import dev.shuttle.server.core.Failures;
import dev.shuttle.server.core.ServerConnection;
import dev.shuttle.server.core.ServerContext;
import dev.shuttle.server.core.StatusText;
import dev.shuttle.wire.http1.Http1Exception;
import dev.shuttle.wire.http2.Http2ErrorCode;
import dev.shuttle.wire.http2.Http2Exception;
import dev.shuttle.wire.http2.Http2RequestHead;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.SocketTimeoutException;

/**
 * The handler of each request stream, on a virtual thread of its own ({@code shuttle-h2-<connection>-<stream>}),
 * started when a handler slot is free ({@link HandlerSlots}), and what follows it: the response finished, or an error
 * answered or the stream reset; an upload the handler left unfinished reset with NO_ERROR; the slot handed on; and
 * after a GOAWAY, the connection's goodbye.
 *
 * <p>Interrupts: a handler writes its frames on its own thread, and the JDK closes a socket channel whose writer is
 * interrupted mid-write, which would end every stream of the connection. So a frame from a thread with an interrupt
 * pending is refused before it changes anything ({@link Http2Writer#refuseIfInterrupted}), which makes interrupting a
 * handler before it writes safe; one that lands inside a socket write still closes the connection. The handler's
 * failure is then answered as any other (a 500 before the commit, a reset after), with the interrupt cleared first so
 * that answer goes out; it is cleared again before the slot is handed on.
 *
 * <p>Kept handlers: on a plaintext connection that parks, the reader keeps back the last handler a read started
 * instead of starting its thread, and runs it on its own thread once it has parked the connection
 * ({@link #takeKept}), as an event loop runs the last request of a read itself. A request alone in its read, the
 * usual case of a connection that is mostly idle, then costs no thread start and no wake of a second carrier. Before
 * the reader could block, it starts the kept handler's thread after all ({@link #startKept}), so a kept handler never
 * waits on its own connection's reader.
 */
final class HandlerRun {
    private static final System.Logger LOG = System.getLogger(HandlerRun.class.getName());

    private final ServerConnection connection;
    private final ServerContext context;
    private final Http2Streams streams;
    private final StreamSender sender;
    private final Http2Writer writer;
    private final HandlerSlots slots;
    private final Goodbye goodbye;
    /** Told when a handler finishes: the idle timeout counts from the last stream's end. */
    private final Runnable streamActivity;
    private final long bodyReadNanos;
    /** The reader thread that may keep a handler back now; null while none may. */
    private volatile Thread keeper;
    /** Reader: the stream of the handler kept back, and its head; null when none is. */
    private Http2Stream keptStream;
    private Http2RequestHead keptHead;

    HandlerRun(ServerConnection connection, Http2Streams streams, StreamSender sender, Http2Writer writer,
               HandlerSlots slots, Goodbye goodbye, Runnable streamActivity) {
        this.connection = connection;
        this.context = connection.context();
        this.streams = streams;
        this.sender = sender;
        this.writer = writer;
        this.slots = slots;
        this.goodbye = goodbye;
        this.streamActivity = streamActivity;
        this.bodyReadNanos = context.timeouts.bodyRead().toNanos();
    }

    /**
     * Runs the stream's handler, now or once a handler slot is free.
     *
     * @throws Http2Exception ENHANCE_YOUR_CALM when too many streams wait for a slot already
     */
    void start(Http2Stream stream, Http2RequestHead head) throws Http2Exception {
        writer.handlerStarting();
        try {
            slots.admit(() -> launch(stream, head));
        } catch (Http2Exception | RuntimeException e) {
            writer.handlerDone();
            throw e;
        }
    }

    /** On the reader admitting it, or on the handler thread whose release gave it a slot. */
    private void launch(Http2Stream stream, Http2RequestHead head) {
        if (Thread.currentThread() != keeper) {
            startThread(stream, head);
            return;
        }
        startKept(); // an earlier stream of the same read: its handler waits no longer
        keptStream = stream;
        keptHead = head;
    }

    /** Reader: from now until {@link #takeKept} or {@link #stopKeeping}, the last handler started may be kept back. */
    void keepOnThisThread() {
        keeper = Thread.currentThread();
    }

    /** Reader, before it may block: starts the thread of the handler kept back, if any. */
    void startKept() {
        Http2Stream stream = keptStream;
        if (stream != null) {
            Http2RequestHead head = keptHead;
            keptStream = null;
            keptHead = null;
            startThread(stream, head);
        }
    }

    /** Reader, when it does not park: no handler is kept back any more. */
    void stopKeeping() {
        keeper = null;
        startKept();
    }

    /**
     * Reader, when it parks: no handler is kept back any more; the one that was is returned, to run on the reader's
     * thread once the connection is parked.
     *
     * @return the kept handler's run, or null
     */
    Runnable takeKept() {
        keeper = null;
        Http2Stream stream = keptStream;
        if (stream == null) {
            return null;
        }
        Http2RequestHead head = keptHead;
        keptStream = null;
        keptHead = null;
        return () -> {
            Thread.currentThread().setName(threadName(stream));
            run(stream, head);
        };
    }

    private void startThread(Http2Stream stream, Http2RequestHead head) {
        Thread.ofVirtual().name(threadName(stream)).start(() -> run(stream, head));
    }

    private String threadName(Http2Stream stream) {
        return "shuttle-h2-" + connection.id() + "-" + stream.id;
    }

    private void run(Http2Stream stream, Http2RequestHead head) {
        Http2RequestBody body = new Http2RequestBody(streams, sender, stream, context.limits.maxRequestBodyBytes(),
                bodyReadNanos);
        Http2Request request = new Http2Request(head, body, connection);
        Http2Response response = new Http2Response(sender, stream, "HEAD".equals(head.method()));
        try {
            if (stream.reset == null) { // a stream reset while it waited for a slot is not served
                context.handler.handle(request, response);
                response.finish();
            }
        } catch (Throwable t) {
            Thread.interrupted(); // the failure's answer (a 500 or a reset) must not be refused in its turn
            failed(stream, request, response, body, t);
        } finally {
            writer.handlerDone();
            Thread.interrupted(); // an interrupt left behind must not reach the next blocking call of this thread
            boolean unfinished = streams.handlerDone(stream);
            streamActivity.run();
            slots.release();
            done(stream, unfinished);
            // No re-park here when this was the last stream: a park with streams open lasts one idle timeout and
            // then looks again (parkedEnd), which costs nothing per request, where taking the channel back from the
            // watcher after every last stream would cost a wake-up each.
        }
    }

    private void failed(Http2Stream stream, Http2Request request, Http2Response response, Http2RequestBody body,
                        Throwable failure) {
        IOException bodyFailure = body.failure();
        boolean fromBody = bodyFailure != null && causedBy(failure, bodyFailure);
        if (response.isCommitted()) {
            // The client sees the stream reset, never a complete-looking wrong response. Logged once: at WARNING as
            // the handler's fault, unless the client or the connection broke the exchange.
            boolean clientFault = fromBody || Failures.clientGone(failure)
                    || (response.sendFailure() != null && causedBy(failure, response.sendFailure()));
            LOG.log(clientFault ? Level.DEBUG : Level.WARNING, "connection " + connection.id() + " stream "
                    + stream.id + ": handler failed after committing the response to " + request
                    + "; resetting the stream", failure);
            if (stream.reset == null) {
                sender.reset(stream.id, Http2ErrorCode.INTERNAL_ERROR);
            }
            return;
        }
        if (stream.reset != null) {
            LOG.log(Level.DEBUG, "stream {0} of connection {1} reset while its handler ran: {2}", stream.id,
                    connection.id(), failure.toString());
            return;
        }
        int status = 500;
        if (fromBody) {
            status = bodyFailure instanceof Http1Exception http1 ? http1.status()
                    : bodyFailure instanceof SocketTimeoutException ? 408 : 400;
        } else {
            LOG.log(Level.WARNING, "handler failed on " + request, failure);
        }
        respondWithError(stream, stream.remoteEnded(), status, null);
    }

    private static boolean causedBy(Throwable failure, Throwable cause) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t == cause) {
                return true;
            }
        }
        return false;
    }

    /** Answers a stream with an error status and a short text, without (or instead of) its handler. */
    void respondWithError(Http2Stream stream, boolean remoteEnded, int status, String detail) {
        Http2Response error = new Http2Response(sender, stream, false);
        try {
            error.status(status);
            error.send(status + " " + StatusText.reason(status) + (detail == null ? "" : ": " + detail) + "\n");
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.DEBUG, "stream {0}: error response not sent: {1}", stream.id, e.toString());
        }
        done(stream, !stream.handlerDone && streams.handlerDone(stream) && !remoteEnded);
    }

    /**
     * The stream's handler (or error response) is done: an upload it left unfinished is reset with NO_ERROR (which
     * also returns what was buffered), else the connection window credit of a body it left unread goes back
     * ({@link Http2Streams#handlerDone}). After a GOAWAY, the last stream to finish half-closes the connection, and a
     * reader comes to read until the client closes ({@link Goodbye}).
     */
    private void done(Http2Stream stream, boolean unfinished) {
        if (unfinished) {
            sender.reset(stream.id, Http2ErrorCode.NO_ERROR);
        } else {
            try {
                sender.sendConnectionUpdate();
            } catch (IOException e) {
                LOG.log(Level.DEBUG, "connection {0}: WINDOW_UPDATE not sent: {1}", connection.id(), e.toString());
            }
        }
        if (goodbye.lingerIfDone()) {
            connection.requestReader();
        }
    }
}
