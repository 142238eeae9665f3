package dev.shuttle.client.http2;

import dev.shuttle.client.HttpTimeoutException;
import dev.shuttle.client.internal.Deadline;
import dev.shuttle.client.internal.TaskScheduler;
import dev.shuttle.transport.Transport;
import dev.shuttle.wire.http2.Http2ErrorCode;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * A request body on its way out as DATA frames: bytes gather in a pooled buffer of one frame's payload; a full buffer
 * (or {@link #finish}) waits for room in the writer's queue and for flow-control credit on the stream and the
 * connection, then goes to the writer's queue, which writes and gives the buffer back. So a caller blocks exactly
 * while the server grants no window or the socket does not drain, never on the socket itself.
 *
 * <p>Both waits are on the stream's condition, where the call timeout (its abort resets the stream) and the write
 * timeout reach them. The write timeout bounds a stall, not the upload, as on HTTP/1.1: no window for that long since
 * the last frame left fails this stream only ({@code WRITE}, RST_STREAM(CANCEL)); the writer blocked in one socket
 * write for that long means the server reads nothing on the connection, which then fails with all its streams, as
 * Go's {@code WriteByteTimeout} closes it.
 *
 * <p>Owned by the thread writing the request. When the server has answered in full and stopped the stream, further
 * bytes are dropped: the request is over. So they are once a final response above 299 has arrived (Go's rule: the
 * server does not want the body), without END_STREAM: the server gets no truncated body that looks whole, and the
 * stream ends when the response does (the reader then resets it, RFC 9113 8.1) or the caller closes the response.
 */
final class Http2Upload extends OutputStream {
    /** What a blocked caller waits for. */
    private enum Blocked { WINDOW, SOCKET }

    private final Http2Connection connection;
    private final Http2Stream stream;
    private final Http2Exchange exchange;
    private final TaskScheduler scheduler;
    /** The write timeout, or {@link Deadline#NONE}. */
    private final long writeTimeoutNanos;
    /** Payload being filled (write mode); null once given back or handed to the writer. */
    private ByteBuffer current;
    private long written;
    /** Bytes handed to the writer's queue. */
    private long queued;
    private boolean finished;
    private boolean stopped;
    /** Stopped by a final answer above 299 (not by the stream's end): later writes throw {@link Refused}. */
    private boolean refused;
    /** While waiting: for what, and since when nothing moved (the last frame queued); null otherwise. */
    private Blocked blocked;
    private long blockedSince;
    /** The write timeout this body threw, and whether it is the whole connection's (its socket stuck). */
    private HttpTimeoutException writeTimedOut;
    private boolean connectionStuck;

    Http2Upload(Http2Connection connection, Http2Stream stream, Http2Exchange exchange, TaskScheduler scheduler,
                     long writeTimeoutNanos) {
        this.connection = connection;
        this.stream = stream;
        this.exchange = exchange;
        this.scheduler = scheduler;
        this.writeTimeoutNanos = writeTimeoutNanos;
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        if (finished) {
            throw new IOException("request body already finished");
        }
        if (stopped && refused) {
            throw new Refused(); // the publisher need not produce what nobody will read
        }
        written += len;
        while (len > 0 && !stopped) {
            ByteBuffer buffer = buffer();
            int n = Math.min(len, buffer.remaining());
            buffer.put(b, off, n);
            off += n;
            len -= n;
            if (!buffer.hasRemaining()) {
                send(false);
            }
        }
    }

    /** Sends what is buffered with END_STREAM; checks that a declared length was met. */
    void finish(long declaredLength) throws IOException {
        if (declaredLength >= 0 && written != declaredLength) {
            throw new IOException("request body of " + written + " bytes, but its declared length is "
                    + declaredLength);
        }
        finished = true;
        if (!stopped) {
            buffer();
            send(true);
        }
    }

    private ByteBuffer buffer() {
        if (current == null) {
            current = connection.buffers.acquire();
            current.limit(Math.min(current.capacity(), 16_384));
        }
        return current;
    }

    /**
     * Hands the buffer to the writer in as many frames as the credit allows, waiting for room and credit as needed.
     * Room is looked for first and credit taken in the same hold of the lock as the frame is queued, so no credit is
     * ever taken for a frame that then fails to leave.
     */
    private void send(boolean endStream) throws IOException {
        ByteBuffer payload = current;
        current = null;
        payload.flip();
        long since = connection.clock.getAsLong(); // the last progress: a frame queued
        long windowSince = since; // a stall for want of window counts from the last progress or the last room
        connection.lock.lock();
        try {
            do {
                int n;
                while (true) {
                    if (refusedLocked()) {
                        stopped = true;
                        refused = true;
                        return;
                    }
                    // failed, reset, aborted by the call timeout: throws
                    connection.streams.checkSendableLocked(stream);
                    if (!connection.writer.hasRoomForDataLocked(stream)) {
                        awaitLocked(Blocked.SOCKET, since);
                        windowSince = connection.clock.getAsLong();
                    } else if ((n = connection.streams.takeSendWindowLocked(stream, payload.remaining(),
                            connection.peerMaxFrameSizeLocked())) < 0) {
                        awaitLocked(Blocked.WINDOW, windowSince);
                    } else {
                        break;
                    }
                }
                ByteBuffer frame;
                if (n == payload.remaining()) {
                    frame = payload;
                    payload = null;
                } else {
                    frame = connection.buffers.acquire();
                    frame.put(payload.array(), payload.arrayOffset() + payload.position(), n).flip();
                    payload.position(payload.position() + n);
                }
                connection.streams.queueDataLocked(stream, frame, endStream && payload == null);
                queued += n;
                blocked = null;
                since = connection.clock.getAsLong();
                windowSince = since;
            } while (payload != null);
        } catch (InterruptedException e) {
            InterruptedIOException interrupted = new InterruptedIOException("interrupted while sending the body");
            connection.streams.resetLocked(stream, Http2ErrorCode.CANCEL, interrupted);
            Thread.currentThread().interrupt();
            throw interrupted;
        } catch (IOException e) {
            if (e == writeTimedOut) {
                throw e;
            }
            if (stream.failure == null && stream.remoteEnd) {
                stopped = true; // answered in full: the rest of the request is not wanted
                return;
            }
            if (exchange.abortReason() != null && blocked != null) {
                exchange.abortedWhileSending("(" + queued + " bytes sent): "
                        + blockedOn(blocked, connection.clock.getAsLong() - blockedSince));
            }
            throw exchange.abortReason() != null ? exchange.abortReason() : e;
        } finally {
            connection.lock.unlock();
            if (payload != null) {
                connection.buffers.release(payload);
            }
            if (connectionStuck) {
                connection.failed(writeTimedOut); // outside the lock: it closes the socket
            }
        }
    }

    /**
     * One wait for room or credit (lock held), bounded by the write timeout: for credit, counted from {@code since};
     * for room, from when the writer's socket write in progress began.
     */
    private void awaitLocked(Blocked on, long since) throws IOException, InterruptedException {
        assert connection.lock.isHeldByCurrentThread();
        blocked = on;
        blockedSince = since;
        long now = connection.clock.getAsLong();
        long deadline;
        if (on == Blocked.WINDOW) {
            deadline = Deadline.after(since, writeTimeoutNanos);
            if (now >= deadline) {
                writeTimedOut = new HttpTimeoutException(HttpTimeoutException.Kind.WRITE,
                        "no progress sending the request body (" + queued + " bytes sent): "
                                + blockedOn(on, now - since));
                connection.streams.resetLocked(stream, Http2ErrorCode.CANCEL, writeTimedOut);
                throw writeTimedOut;
            }
        } else {
            long writeStarted = connection.transport.writeStartedNanos();
            deadline = Deadline.after(writeStarted == Transport.NOT_WRITING ? now : writeStarted, writeTimeoutNanos);
            if (now >= deadline) {
                writeTimedOut = new HttpTimeoutException(HttpTimeoutException.Kind.WRITE,
                        "no progress sending the request body (" + queued + " bytes sent): a write to the"
                                + " connection stayed blocked for " + (now - writeStarted) / 1_000_000 + " ms after "
                                + connection.transport.bytesSent() + " bytes sent on it; the server is not reading");
                connectionStuck = true;
                throw writeTimedOut;
            }
        }
        connection.deadlines.addLocked(stream, deadline, now, scheduler);
        stream.sendWaiting = true;
        try {
            stream.changed.await();
        } finally {
            stream.sendWaiting = false;
            connection.deadlines.removeLocked(stream);
        }
    }

    private static String blockedOn(Blocked on, long nanos) {
        long ms = nanos / 1_000_000;
        return on == Blocked.WINDOW
                ? "the server granted no flow-control window for " + ms + " ms; it is not reading the request"
                : "no room on the connection for " + ms + " ms (its socket does not drain); the server is not"
                        + " reading";
    }

    /** A final response above 299 arrived while the body was on its way: the server does not want the rest. */
    private boolean refusedLocked() {
        assert connection.lock.isHeldByCurrentThread();
        return stream.head != null && stream.head.status() > 299;
    }

    /** Whether the upload stopped before its end because the server answered (the request did not go out whole). */
    boolean stopped() {
        return stopped;
    }

    /** Thrown at the publisher once the server refused the body: its caller, the exchange, expects it. */
    static final class Refused extends IOException {
        Refused() {
            super("the server answered with a final status above 299 before the request body was sent: not sending"
                    + " the rest");
        }
    }

    /** Gives back a buffer not sent (a failed publisher). Idempotent; does not send anything. */
    @Override
    public void close() {
        if (current != null) {
            connection.buffers.release(current);
            current = null;
        }
    }
}
