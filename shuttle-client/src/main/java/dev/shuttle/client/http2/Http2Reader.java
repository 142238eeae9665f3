package dev.shuttle.client.http2;

import dev.shuttle.transport.ReadinessWatcher;
import dev.shuttle.wire.http2.HeaderBlockAssembler;
import dev.shuttle.wire.http2.Http2ErrorCode;
import dev.shuttle.wire.http2.Http2Exception;
import dev.shuttle.wire.http2.Http2Frame;
import dev.shuttle.wire.http2.Http2FrameReader;
import dev.shuttle.wire.http2.PingFrame;
import java.io.EOFException;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.util.function.Consumer;

/**
 * The reader loop of a client {@link Http2Connection}: reads the socket, hands each whole frame to
 * {@link FrameReceiver}, sends our PINGs, and stops when nothing is left to wait for, letting the connection park.
 * {@link #run} is the body of the connection's reader thread, which exists only while the connection has work;
 * everything here is owned by that thread (one at a time: {@link Http2Parking} starts a reader only when none runs).
 *
 * <p>Buffers: a pooled 17 KiB read buffer while running (a whole frame of the default maximum size fits); when it
 * stops, a partial frame is kept in {@link #carry}, an array of its exact size, and the buffer goes back, as the
 * TLS layer does with a partial record.
 *
 * <p>Lingering: when nothing is left to wait for, the reader does not stop at once but reads for {@link #LINGER_NANOS}
 * more. A connection whose callers keep coming back (a closed loop of requests, where every stream may be answered
 * before the next one opens) then never parks between them: parking costs a watcher registration and a selector
 * wake-up, taking it back another wake-up and a new reader thread, tens of microseconds each time, and all of it
 * on the path of the next request.
 */
final class Http2Reader {
    /**
     * How long a reader with nothing to wait for reads on before the connection parks: 50 ms. A park and the unpark
     * after it cost some tens of microseconds, so a connection used less often than this pays under 0.1% for
     * parking; one used in a loop never parks, even when its callers are starved of CPU for a while. Its price: a
     * connection holds a thread and its read buffer for 50 ms after its last stream, so a client whose connections
     * each serve a request every few seconds still has nearly all of them parked.
     */
    static final long LINGER_NANOS = 50_000_000;

    private final Http2Connection connection;
    /** Reader thread only: frames out of {@link #buffer}. */
    private final Http2FrameReader frames;
    /** Reader thread only: HEADERS joined with their CONTINUATIONs. */
    private final HeaderBlockAssembler blocks;
    /** Applies each whole frame; shared by successive reader threads as this object is. */
    private final FrameReceiver receiver;

    /** Reader thread only. Null while stopped. */
    private ByteBuffer buffer;
    /** A partial frame kept while stopped, or null. */
    private byte[] carry;
    /** A PING of ours waits for its ACK. */
    private boolean pingOutstanding;
    private long pingPayload;
    /** When the reader, having nothing to wait for, stops lingering ({@link #LINGER_NANOS}); 0 when not lingering. */
    private long lingerEnd;
    /** The linger ran out without anything to read: the next quiet moment stops the reader. */
    private boolean lingered;

    /** Points where a test holds a reader thread ({@link #stageHook}). */
    enum Stage {
        /** A frame was handled: its stream may be marked to wake, not woken yet. */
        FRAME_HANDLED,
        /** The reader stopped and its buffers went back: a new reader may run on this object already. */
        STOPPED,
        /** A failed reader woke the callers of the streams its last frames changed, and let go of the lock. */
        WOKEN
    }

    /** Tests only, null otherwise: runs on the reader thread at each {@link Stage}. */
    volatile Consumer<Stage> stageHook;

    Http2Reader(Http2Connection connection) {
        this.connection = connection;
        this.frames = new Http2FrameReader(connection.options.limits().maxFrameSize());
        this.blocks = new HeaderBlockAssembler(connection.options.limits());
        this.receiver = new FrameReceiver(connection);
    }

    /** The reader thread's body: {@code wake} is why it starts (null: a stream opened, or the connection is new). */
    void run(ReadinessWatcher.Wake wake) {
        take();
        boolean stopped = false;
        try {
            if (wake == ReadinessWatcher.Wake.DEADLINE) {
                ping();
            } else if (wake == ReadinessWatcher.Wake.READABLE) {
                fillNow(); // what woke us, read before anything decides to park again (readiness is level-triggered)
            }
            loop();
            // Stopped: the buffers went back before the connection learned it, so a reader started right after
            // may own them (and this object) already; this thread must not touch them again.
            stopped = true;
            stage(Stage.STOPPED);
        } catch (Http2Exception e) {
            connection.parking.readerFailed(e, e.error());
        } catch (EOFException e) {
            connection.parking.readerFailed(e, null);
        } catch (IOException e) {
            connection.parking.readerFailed(new IOException("reading from " + connection.origin() + " failed: "
                    + e.getMessage(), e), null);
        } catch (RuntimeException e) {
            connection.parking.readerFailed(new IOException("HTTP/2 reader failed", e), Http2ErrorCode.INTERNAL_ERROR);
        } finally {
            if (!stopped) {
                // Failed: the connection is closed, no other reader can start, so this one still owns its state.
                wakeAll(); // streams completed by frames handled before the failure: their callers must not miss it
                give();
            }
        }
    }

    private void stage(Stage stage) {
        Consumer<Stage> hook = stageHook;
        if (hook != null) {
            hook.accept(stage);
        }
    }

    private void loop() throws IOException {
        while (true) {
            Http2Frame frame;
            if (!receiver.prefaceSeen()) {
                Http1Answer.check(buffer);
            }
            try {
                frame = frames.read(buffer);
            } catch (Http2Exception e) {
                if (e.isConnectionError()) {
                    throw e;
                }
                receiver.streamError(e.streamId(), e.error(), e.getMessage());
                continue;
            }
            if (frame != null) {
                Http2Frame whole = blocks.accept(frame);
                if (whole != null) {
                    pingOutstanding &= !(whole instanceof PingFrame ping && ping.ack()
                            && ping.opaqueData() == pingPayload);
                    receiver.receive(whole);
                    stage(Stage.FRAME_HANDLED);
                }
                continue;
            }
            switch (next()) { // wakes the callers of what was handled first
                case STOP -> {
                    return;
                }
                case LINGER -> linger();
                case READ -> fill();
            }
        }
    }


    private void wakeAll() {
        connection.lock.lock();
        try {
            receiver.wakeAllLocked();
        } finally {
            connection.lock.unlock();
        }
        stage(Stage.WOKEN);
    }

    /** What the loop does when no complete frame is buffered. */
    private enum Next { READ, LINGER, STOP }

    /**
     * Wakes the callers of the streams marked (in the same hold of the lock as the decision); then stops when nothing
     * is open or half-read and the linger ran out (see {@link #mayStop}); lingers when nothing is open or half-read;
     * reads otherwise.
     */
    private Next next() {
        connection.lock.lock();
        try {
            receiver.wakeAllLocked();
            if (!quietLocked()) {
                lingerEnd = 0;
                lingered = false;
                // Read on. Marked under the lock that closes streams, so a reset of the last stream sees it and
                // wakes this read with a PING (see Http2Connection.closeLocked).
                connection.streams.readerBlockedLocked(true);
                return Next.READ;
            }
            if (!lingered) {
                return Next.LINGER; // not marked blocked: the linger's read ends by itself, no PING needed
            }
        } finally {
            connection.lock.unlock();
        }
        lingered = false;
        lingerEnd = 0;
        return mayStop() ? Next.STOP : Next.READ;
    }

    /** Nothing open, nothing half-read, no PING outstanding, no input held by the transport. */
    private boolean quietLocked() {
        assert connection.lock.isHeldByCurrentThread();
        return connection.streams.quietLocked() && !pingOutstanding && !blocks.inProgress() && receiver.prefaceSeen()
                && !connection.transport.hasBufferedInput();
    }

    /** Reads for what is left of the linger; when it runs out with nothing read, the next quiet moment stops. */
    private void linger() throws IOException {
        long now = connection.clock.getAsLong();
        if (lingerEnd == 0) {
            lingerEnd = now + LINGER_NANOS;
        }
        long left = lingerEnd - now;
        if (left <= 0) {
            lingered = true;
            return;
        }
        buffer.compact();
        int n;
        try {
            n = connection.transport.read(buffer, (int) ((left + 999_999) / 1_000_000));
        } catch (SocketTimeoutException e) {
            lingered = true;
            return;
        } finally {
            buffer.flip();
        }
        if (n < 0) {
            throw new EOFException("the server closed the HTTP/2 connection");
        }
    }

    /** Reads more bytes, waiting at most until a PING is due (or its ACK overdue). */
    private void fill() throws IOException {
        long timeout = pingOutstanding ? connection.options.pingTimeoutMillis()
                : connection.options.pingIntervalMillis();
        buffer.compact();
        int n;
        try {
            n = connection.transport.read(buffer, (int) Math.min(Integer.MAX_VALUE, timeout));
        } catch (SocketTimeoutException e) {
            if (pingOutstanding) {
                throw new IOException("the server did not answer a PING within " + timeout + " ms");
            }
            ping();
            return;
        } finally {
            buffer.flip();
            connection.lock.lock();
            try {
                connection.streams.readerBlockedLocked(false);
            } finally {
                connection.lock.unlock();
            }
        }
        if (n < 0) {
            throw new EOFException("the server closed the HTTP/2 connection");
        }
    }

    /**
     * One read without waiting: readiness may have been a TLS record without application bytes, and a blocking read
     * would then hold this thread on an idle connection.
     */
    private void fillNow() throws IOException {
        buffer.compact();
        int n;
        try {
            n = connection.transport.readNow(buffer);
            if (n == 0 && connection.transport.isSharedWithWriters()) {
                n = tellEndFromNothing();
            }
        } finally {
            buffer.flip();
        }
        if (n < 0) {
            throw new EOFException("the server closed the HTTP/2 connection");
        }
    }

    /**
     * Readiness, yet nothing to read: the transport's non-blocking read cannot see the end of the stream while
     * writers share the channel ({@code Transport.shareWithWriters}), so a 1 ms blocking read tells a server that
     * closed (-1) from a wake-up without application bytes (0), as the server does. Otherwise a closed connection
     * would be woken, find nothing and park again, for ever. Only this rare path pays for it.
     */
    private int tellEndFromNothing() throws IOException {
        try {
            return connection.transport.read(buffer, 1);
        } catch (SocketTimeoutException e) {
            return 0;
        }
    }

    /**
     * Stops when nothing is open or half-read: saves a partial frame, gives the buffers back and lets the connection
     * park. Returns false (buffers taken again) when a stream opened meanwhile.
     */
    private boolean mayStop() {
        connection.lock.lock();
        try {
            if (!quietLocked()) {
                connection.streams.readerBlockedLocked(true); // as in next()
                return false;
            }
        } finally {
            connection.lock.unlock();
        }
        give();
        connection.transport.releaseBuffers();
        if (connection.parking.readerStopping()) {
            return true;
        }
        take();
        return false;
    }

    private void take() {
        buffer = connection.buffers.acquireEmpty();
        if (carry != null) {
            buffer.clear();
            buffer.put(carry).flip();
            carry = null;
        }
    }

    private void give() {
        if (buffer != null) {
            if (buffer.hasRemaining()) {
                carry = new byte[buffer.remaining()];
                buffer.get(carry);
            }
            connection.buffers.release(buffer);
            buffer = null;
        }
    }

    private void ping() {
        pingOutstanding = true;
        pingPayload = connection.clock.getAsLong();
        connection.lock.lock();
        try {
            connection.writer.enqueueLocked(new WriterThread.ControlOut(new PingFrame(pingPayload, false), false));
        } finally {
            connection.lock.unlock();
        }
    }
}
