package dev.shuttle.client.http2;

import dev.shuttle.wire.http2.Http2ErrorCode;
import dev.shuttle.wire.http2.OwnStreamIds;
import dev.shuttle.wire.http2.PingFrame;
import dev.shuttle.wire.http2.ReceiveWindows;
import dev.shuttle.wire.http2.SendWindows;
import dev.shuttle.wire.http2.StreamTable;
import dev.shuttle.wire.http2.WindowUpdateFrame;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The streams of one client HTTP/2 connection and both directions of their flow control: ids given as HEADERS
 * leave, send credit for request bodies, credit handed back for response bytes read or dropped, and how a stream
 * ends (END_STREAM both ways, a reset either way, the connection's failure). The protocol's rules and arithmetic
 * are the wire module's ({@link StreamTable}, {@link OwnStreamIds}, {@link SendWindows}, {@link ReceiveWindows}),
 * shared with the server; this class adds what the client's threads wait for.
 *
 * <p>Everything here is guarded by the connection's lock; what must be sent as a consequence (WINDOW_UPDATE,
 * RST_STREAM, a PING) is queued for the writer thread, never written under it.
 */
final class Http2Streams {
    /** Payload of the PING that wakes a blocked reader; the reader ignores its ACK. */
    static final long WAKE_PING = 0x5368_7574_746c_6521L;

    private final Http2Connection connection;
    private final ReentrantLock lock;
    private final WriterThread writer;

    /** Guarded by lock: the streams that have an id and are not closed. */
    private final StreamTable<Http2Stream> table = new StreamTable<>();
    /** Guarded by lock: the ids of our streams, handed out as HEADERS leave. */
    private final OwnStreamIds ownIds = new OwnStreamIds(true);
    /** Guarded by lock: what the server lets us send, on the connection and each stream. */
    final SendWindows sendWindows = new SendWindows();
    /** Guarded by lock: what we let the server send, on the connection and each stream, and when to credit it. */
    final ReceiveWindows receiveWindows;
    /** Guarded by lock: streams queued but not yet given an id by the writer. */
    private int queued;
    /** Guarded by lock: open streams still waiting for END_STREAM (or a reset) from the server. */
    private int awaitingServer;
    /** Guarded by lock: the reader is in (or about to enter) a blocking read. */
    private boolean readerBlocked;
    /** Guarded by lock: a PING was queued to wake a reader blocked in a read on a connection that went quiet. */
    private boolean wakePingQueued;

    Http2Streams(Http2Connection connection, ReentrantLock lock, WriterThread writer, Http2ConnectionConfig options) {
        this.connection = connection;
        this.lock = lock;
        this.writer = writer;
        this.receiveWindows = new ReceiveWindows(options.connectionWindow(), options.streamWindow());
    }

    // ---- opening: callers, then the writer thread ----

    /** Queues the HEADERS that open {@code stream}; the connection is ACTIVE and takes streams. */
    void queueHeadersLocked(Http2Stream stream, List<String> fields, boolean endStream) {
        assert lock.isHeldByCurrentThread();
        queued++;
        stream.localEnd = endStream;
        writer.enqueueLocked(new WriterThread.HeadersOut(stream, fields, endStream));
    }

    /** The writer is about to write {@code stream}'s HEADERS: give it an id, or refuse (reset meanwhile, GOAWAY). */
    boolean assignIdLocked(Http2Stream stream) {
        assert lock.isHeldByCurrentThread();
        queued--;
        if (stream.isClosed()) {
            wakeQuietReaderLocked(); // reset before it left: it may have been all the reader waited for
            return false;
        }
        if (!connection.acceptingLocked() || ownIds.exhausted()) {
            failLocked(stream, new IOException("HTTP/2 connection to " + connection.origin()
                    + " stopped taking streams"), true);
            return false;
        }
        stream.id = ownIds.next();
        stream.state = Http2Stream.State.OPEN;
        stream.send = sendWindows.open(stream.id);
        stream.receive = receiveWindows.open(stream.id);
        table.put(stream.id, stream);
        awaitingServer++;
        stream.sendSideChanged(); // a body waits for the id
        return true;
    }

    /** The writer stopped with these HEADERS still queued (the connection failed): their stream fails, unprocessed. */
    void headersDroppedLocked(Http2Stream stream, IOException failure) {
        assert lock.isHeldByCurrentThread();
        queued--;
        failLocked(stream, failure != null ? failure : new IOException("HTTP/2 connection to "
                + connection.origin() + " closed before the request was sent"), true);
    }

    // ---- sending a request body: callers, then the writer thread ----

    /**
     * Takes up to {@code wanted} bytes of send credit for {@code stream} (stream and connection windows, at most a
     * frame); returns how many, or -1 when there is none yet (the stream has no id, or a window is spent): its
     * caller then waits on the stream's condition with {@link Http2Stream#sendWaiting} set.
     *
     * @throws IOException when the stream failed or closed
     */
    int takeSendWindowLocked(Http2Stream stream, int wanted, int maxFrameSize) throws IOException {
        assert lock.isHeldByCurrentThread();
        checkSendableLocked(stream);
        if (stream.state != Http2Stream.State.OPEN) {
            return -1;
        }
        if (wanted == 0) {
            return 0;
        }
        int n = sendWindows.take(stream.send, wanted, maxFrameSize);
        return n > 0 ? n : -1;
    }

    /** Queues body bytes whose credit was taken; the caller saw room ({@link WriterThread#hasRoomForDataLocked}). */
    void queueDataLocked(Http2Stream stream, ByteBuffer payload, boolean endStream) throws IOException {
        assert lock.isHeldByCurrentThread();
        checkSendableLocked(stream);
        if (endStream) {
            stream.localEnd = true;
        }
        writer.enqueueLocked(new WriterThread.DataOut(stream, payload, endStream));
    }

    /** Throws when {@code stream} may no longer send: it failed (a reset either way, an abort) or closed. */
    void checkSendableLocked(Http2Stream stream) throws IOException {
        assert lock.isHeldByCurrentThread();
        if (stream.failure != null) {
            throw stream.failure;
        }
        if (stream.isClosed()) {
            throw new IOException("stream closed by the server before the request body was sent");
        }
    }

    /** The writer found DATA of {@code stream}: false (and the credit back) when the stream was reset meanwhile. */
    boolean dataStillWantedLocked(Http2Stream stream, int length) {
        assert lock.isHeldByCurrentThread();
        if (stream.state == Http2Stream.State.OPEN && stream.failure == null) {
            return true;
        }
        sendWindows.refund(stream.send, length);
        return false;
    }

    /** The writer handed END_STREAM of these streams to the socket. */
    void endsWrittenLocked(List<Http2Stream> ended) {
        assert lock.isHeldByCurrentThread();
        for (Http2Stream stream : ended) {
            stream.endWritten = true;
            closeIfDoneLocked(stream);
            stream.sendSideChanged();
        }
    }

    /** The connection's send window grew, or every stream's did: wakes the callers waiting for credit. */
    void sendSideChangedLocked() {
        assert lock.isHeldByCurrentThread();
        table.forEach(Http2Stream::sendSideChanged);
    }

    // ---- receiving: the reader, and callers reading bodies ----

    /**
     * The caller read {@code n} body bytes (or dropped them): hands the credit back to the server, per the update
     * policy, on the connection and (while the server may still send) the stream.
     */
    void consumedLocked(Http2Stream stream, long n) {
        assert lock.isHeldByCurrentThread();
        if (n <= 0 || connection.closedLocked()) {
            return;
        }
        receiveWindows.connectionConsumed(n);
        connectionCreditLocked();
        streamCreditLocked(stream, n);
    }

    /** Queues the connection's WINDOW_UPDATE if the update policy has one due. */
    void connectionCreditLocked() {
        assert lock.isHeldByCurrentThread();
        int increment = receiveWindows.takeConnectionUpdate();
        if (increment > 0 && !connection.closedLocked()) {
            writer.enqueueLocked(new WriterThread.ControlOut(new WindowUpdateFrame(0, increment), false));
        }
    }

    /**
     * {@code n} octets of {@code stream} were consumed: queues its WINDOW_UPDATE if one is due and the server may
     * still send on it.
     */
    void streamCreditLocked(Http2Stream stream, long n) {
        assert lock.isHeldByCurrentThread();
        if (n <= 0 || stream == null || stream.receive == null || stream.remoteEnd || stream.isClosed()
                || connection.closedLocked()) {
            return;
        }
        streamUpdateLocked(stream, receiveWindows.streamConsumed(stream.receive, n));
    }

    /** Queues a WINDOW_UPDATE of {@code increment} for {@code stream}, unless it is 0 or nothing more will arrive. */
    void streamUpdateLocked(Http2Stream stream, int increment) {
        assert lock.isHeldByCurrentThread();
        if (increment > 0 && !stream.remoteEnd && !stream.isClosed() && !connection.closedLocked()) {
            writer.enqueueLocked(new WriterThread.ControlOut(new WindowUpdateFrame(stream.id, increment), false));
        }
    }

    /** END_STREAM arrived on {@code stream} (reader). */
    void remoteEndLocked(Http2Stream stream) {
        assert lock.isHeldByCurrentThread();
        if (!stream.remoteEnd) {
            stream.remoteEnd = true;
            if (stream.state == Http2Stream.State.OPEN) {
                awaitingServer--;
            }
        }
    }

    Http2Stream getLocked(int streamId) {
        assert lock.isHeldByCurrentThread();
        return table.get(streamId);
    }

    /**
     * Whether the server may refer to {@code streamId}: one of ours that was opened (maybe closed since); any frame
     * but PRIORITY on another is a connection error (RFC 9113 section 5.1).
     */
    boolean wasOpenedLocked(int streamId) {
        assert lock.isHeldByCurrentThread();
        return ownIds.wasOpened(streamId);
    }

    /** The open streams, in a list of their own (closing them changes the table). */
    List<Http2Stream> snapshotLocked() {
        assert lock.isHeldByCurrentThread();
        return table.snapshot();
    }

    boolean isEmptyLocked() {
        assert lock.isHeldByCurrentThread();
        return table.isEmpty();
    }

    // ---- ending streams: any thread ----

    /**
     * Resets {@code stream} (RST_STREAM with {@code error}, if its HEADERS left), fails it with {@code cause}, and
     * gives back the credit of what it buffered. Only this stream is touched; a no-op once it is closed.
     */
    void resetLocked(Http2Stream stream, Http2ErrorCode error, IOException cause) {
        assert lock.isHeldByCurrentThread();
        if (stream.isClosed()) {
            return;
        }
        boolean sent = stream.state == Http2Stream.State.OPEN;
        if (sent) {
            writer.enqueueLocked(new WriterThread.ResetOut(stream, error));
        }
        failLocked(stream, cause, !sent);
    }

    /** Marks {@code stream} failed and closed; its buffered bytes' credit goes back to the connection. */
    void failLocked(Http2Stream stream, IOException cause, boolean unprocessed) {
        assert lock.isHeldByCurrentThread();
        if (stream.failure == null) {
            stream.failure = cause;
            stream.unprocessed = unprocessed;
        }
        long dropped = stream.body.discard(connection.chunks);
        consumedLocked(null, dropped);
        closeLocked(stream, true);
    }

    /** GOAWAY: the streams above {@code lastStreamId} were not processed and fail as retryable. */
    void goAwayLocked(int lastStreamId, IOException cause) {
        assert lock.isHeldByCurrentThread();
        for (Http2Stream stream : table.snapshot()) {
            if (stream.id > lastStreamId) {
                failLocked(stream, cause, true);
            }
        }
    }

    /** The connection failed: every stream fails, those above {@code lastStreamId} as never processed. */
    void failAllLocked(IOException cause, int lastStreamId) {
        assert lock.isHeldByCurrentThread();
        for (Http2Stream stream : table.snapshot()) {
            failLocked(stream, cause, stream.id > lastStreamId);
        }
        table.clear();
    }

    /**
     * The response is complete but the request is not: stop sending it (with RST_STREAM(NO_ERROR) when
     * {@code sendReset}), keeping what was received for the body to read.
     */
    void stopSendingLocked(Http2Stream stream, boolean sendReset) {
        assert lock.isHeldByCurrentThread();
        if (sendReset && stream.state == Http2Stream.State.OPEN) {
            writer.enqueueLocked(new WriterThread.ResetOut(stream, Http2ErrorCode.NO_ERROR));
        }
        closeLocked(stream, true);
    }

    /**
     * Removes a stream whose both ends are done. Does not signal it: whoever completed it signals what its caller
     * waits for (the reader the end of the response, the writer END_STREAM written).
     */
    void closeIfDoneLocked(Http2Stream stream) {
        assert lock.isHeldByCurrentThread();
        if (stream.remoteEnd && stream.endWritten && !stream.isClosed()) {
            closeLocked(stream, false);
        }
    }

    private void closeLocked(Http2Stream stream, boolean signal) {
        assert lock.isHeldByCurrentThread();
        if (stream.state == Http2Stream.State.OPEN && !stream.remoteEnd) {
            awaitingServer--;
        }
        stream.state = Http2Stream.State.CLOSED;
        if (stream.id != 0) {
            table.remove(stream.id);
        }
        if (signal) {
            stream.changed.signalAll();
        }
        wakeQuietReaderLocked();
    }

    // ---- whether the reader may stop ----

    /**
     * Whether the reader may stop: no stream waits for anything from the server (those in the table have their
     * END_STREAM and wait only for the writer to send theirs) and none is queued to open.
     */
    boolean quietLocked() {
        assert lock.isHeldByCurrentThread();
        return awaitingServer == 0 && queued == 0;
    }

    /** The reader goes into a blocking read (true) or came out of one (false). */
    void readerBlockedLocked(boolean blocked) {
        assert lock.isHeldByCurrentThread();
        readerBlocked = blocked;
        if (!blocked) {
            wakePingQueued = false;
        }
    }

    /** For tests: whether the reader is in (or about to enter) a blocking read for a stream's frames. */
    boolean readerBlockedLocked() {
        assert lock.isHeldByCurrentThread();
        return readerBlocked;
    }

    /**
     * When the reader is blocked in a read but nothing is left for it to wait for (we reset the last stream it
     * served), it would sit there until the server sends something, holding a thread and a buffer on an idle
     * connection: a PING makes the server send something, and its ACK wakes the reader, which then stops.
     */
    private void wakeQuietReaderLocked() {
        assert lock.isHeldByCurrentThread();
        if (readerBlocked && !wakePingQueued && quietLocked() && connection.activeLocked()) {
            wakePingQueued = true;
            writer.enqueueLocked(new WriterThread.ControlOut(new PingFrame(WAKE_PING, false), false));
        }
    }
}
