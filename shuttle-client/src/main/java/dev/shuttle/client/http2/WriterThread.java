package dev.shuttle.client.http2;

import dev.shuttle.transport.BufferPool;
import dev.shuttle.transport.Transport;
import dev.shuttle.wire.http2.FieldBlockEncoder;
import dev.shuttle.wire.http2.Http2ErrorCode;
import dev.shuttle.wire.http2.Http2Frame;
import dev.shuttle.wire.http2.Http2FrameWriter;
import dev.shuttle.wire.http2.RstStreamFrame;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The one thread that writes a client HTTP/2 connection's socket. Callers and the reader only queue frames
 * ({@link #enqueueLocked}); a virtual thread started on demand writes them in order, batching small frames into one
 * socket write. While the connection's reader runs, the writer waits for more frames when its queue is empty (one
 * signal per batch instead of a thread start); it ends once the reader stops or the connection fails
 * ({@link #dismissLocked}), so an idle connection has no writer thread.
 *
 * <p>Why a thread of its own rather than the callers writing under a lock: a caller's thread can be interrupted, and
 * an interrupt during blocking channel I/O closes the channel, which on HTTP/2 would cost every stream of the
 * connection. Callers only ever wait on conditions, which an interrupt ends without touching the socket; this thread
 * is never interrupted. It also keeps the HPACK encoder and stream-id order trivially right: stream ids are assigned
 * and field blocks encoded here, in the order HEADERS leave.
 *
 * <p>Queue and flags are guarded by the connection's lock; the encoder and the write buffer are owned by the writer
 * thread. Body bytes wait here only after their flow-control credit was taken, and at most {@link #MAX_QUEUED_DATA}
 * bytes of them per connection (callers wait for room), so a peer that stops reading holds back the callers, not
 * memory. Other frames are counted too: the answers a server asks for (SETTINGS and PING ACKs) go in only while fewer
 * than {@link #MAX_QUEUED_CONTROL} are queued ({@link #hasRoomForAnswerLocked}).
 */
final class WriterThread {
    /** Queued DATA bytes per connection before writers wait: four full frames. */
    static final int MAX_QUEUED_DATA = 4 * 16_384;
    /**
     * Frames other than HEADERS and DATA queued, past which the reader fails the connection rather than queue another
     * answer: 10 000, the bound of Go's server ({@code maxQueuedControlFrames}) and Netty
     * ({@code Http2ControlFrameLimitEncoder}); under a megabyte. Only a server that sends PINGs or SETTINGS and reads
     * none of the answers gets there. Failing beats Go's transport's answer (its reader blocks on the write), which
     * would stall every stream's response behind a peer that does not read.
     */
    static final int MAX_QUEUED_CONTROL = 10_000;

    /** What can be queued. */
    sealed interface Outbound {
    }

    /** A request's field block; the stream gets its id when this is written. */
    record HeadersOut(Http2Stream stream, List<String> fields, boolean endStream) implements Outbound {
    }

    /** Body bytes of a stream, in a pooled buffer (read mode) given back once written. */
    record DataOut(Http2Stream stream, ByteBuffer payload, boolean endStream) implements Outbound {
    }

    /** A frame about the connection or an open stream (SETTINGS ACK, PING, WINDOW_UPDATE, GOAWAY). */
    record ControlOut(Http2Frame frame, boolean closeAfter) implements Outbound {
    }

    /** RST_STREAM for a stream, skipped when its HEADERS never left (it has no id then). */
    record ResetOut(Http2Stream stream, Http2ErrorCode error) implements Outbound {
    }

    /** The peer's new HPACK table limit, applied by the encoder before the SETTINGS ACK that follows it. */
    record TableSizeOut(long headerTableSize) implements Outbound {
    }

    private final Http2Connection connection;
    private final ReentrantLock lock;
    private final Transport transport;
    private final BufferPool buffers;
    /** Writer thread only: field blocks are encoded in the order HEADERS leave. */
    private final FieldBlockEncoder blocks = new FieldBlockEncoder();

    /** Guarded by lock. */
    private final ArrayDeque<Outbound> queue = new ArrayDeque<>();
    /** Guarded by lock: DATA bytes queued. */
    private int queuedData;
    /** Guarded by lock: frames other than HEADERS and DATA queued. */
    private int queuedControl;
    /** Guarded by lock: streams whose callers wait for room for DATA; signalled when queued DATA was written. */
    private final ArrayList<Http2Stream> roomWaiters = new ArrayList<>();
    /** Guarded by lock: whether the writer thread exists (and is the current one: see {@link #generation}). */
    private boolean running;
    /** Guarded by lock: the writer thread waits on {@link #work} for frames. */
    private boolean waiting;
    /** Guarded by lock: signalled when frames are queued for a waiting writer, or when it is dismissed. */
    private final Condition work;
    /**
     * Guarded by lock: counts dismissals. A dismissed writer may still be waking up when the next one starts; it
     * sees the count changed and ends without touching the encoder or the queue.
     */
    private long generation;
    /** Tests only; null otherwise. */
    private volatile Runnable beforeWrite;

    WriterThread(Http2Connection connection, ReentrantLock lock, Transport transport, BufferPool buffers) {
        this.connection = connection;
        this.lock = lock;
        this.transport = transport;
        this.buffers = buffers;
        this.work = lock.newCondition();
    }

    /**
     * Queues {@code item} and starts the writer thread if none runs and the channel is the connection's to write.
     * Never blocks. While the connection is parking, parked or being unparked the channel belongs to the watcher
     * (non-blocking, registered): a write then fails with {@code IllegalBlockingModeException} and kills the
     * connection. The only frames queued then are WINDOW_UPDATEs for bytes a caller read or dropped after the last
     * stream ended; they wait here and leave first when the connection is active again ({@link #resumeLocked}).
     */
    void enqueueLocked(Outbound item) {
        assert lock.isHeldByCurrentThread();
        queue.add(item);
        if (item instanceof DataOut data) {
            queuedData += data.payload().remaining();
        } else if (isControl(item)) {
            queuedControl++;
        }
        if (waiting) {
            waiting = false; // one signal for everything queued until it runs
            work.signal();
        } else {
            resumeLocked();
        }
    }

    /** Starts the writer thread if frames wait, none runs, and the connection owns its channel (ACTIVE). */
    void resumeLocked() {
        assert lock.isHeldByCurrentThread();
        if (!running && !queue.isEmpty() && connection.parking.activeLocked()) {
            running = true;
            Thread.ofVirtual().name("shuttle-h2-writer-" + connection.id()).start(this::run);
        }
    }

    /** Counted against {@link #MAX_QUEUED_CONTROL}: everything but a request's HEADERS and DATA. */
    private static boolean isControl(Outbound item) {
        return !(item instanceof HeadersOut) && !(item instanceof DataOut);
    }

    /** Whether an answer the server asked for (a SETTINGS or PING ACK) may be queued: under the control bound. */
    boolean hasRoomForAnswerLocked() {
        assert lock.isHeldByCurrentThread();
        return queuedControl < MAX_QUEUED_CONTROL;
    }

    /**
     * Whether DATA may be queued now. If not, {@code stream}'s condition is signalled once queued DATA was written (or
     * the writer stopped): its caller waits on it, where the call timeout and the write timeout reach it too.
     */
    boolean hasRoomForDataLocked(Http2Stream stream) {
        assert lock.isHeldByCurrentThread();
        if (queuedData < MAX_QUEUED_DATA || !running) {
            return true;
        }
        if (!roomWaiters.contains(stream)) {
            roomWaiters.add(stream);
        }
        return false;
    }

    private void roomFreedLocked() {
        assert lock.isHeldByCurrentThread();
        for (int i = 0; i < roomWaiters.size(); i++) {
            roomWaiters.get(i).changed.signalAll();
        }
        roomWaiters.clear();
    }

    boolean isRunningLocked() {
        assert lock.isHeldByCurrentThread();
        return running;
    }

    /**
     * Ends a writer that waits for frames with nothing queued (the reader stopped, or the connection failed): it no
     * longer counts as running, and its thread ends as soon as it wakes. Returns whether there was one.
     */
    boolean dismissLocked() {
        assert lock.isHeldByCurrentThread();
        if (!running || !waiting) {
            return false; // none, or busy: it sees for itself that it may not wait when its queue is empty
        }
        running = false;
        waiting = false;
        generation++;
        work.signal();
        return true;
    }

    /**
     * The writer thread: drains the queue; then waits for more while the reader runs, or ends (and lets the
     * connection park if nothing else runs).
     */
    private void run() {
        ByteBuffer out = buffers.acquire();
        List<Http2Stream> ended = new ArrayList<>();
        boolean closeAfter = false;
        try {
            while (true) {
                Outbound item;
                int maxFrameSize;
                lock.lock();
                try {
                    item = queue.poll();
                    if (item != null && isControl(item)) {
                        queuedControl--;
                    }
                    if (item == null && out.position() == 0 && ended.isEmpty()) {
                        if (connection.parking.writerMayWaitLocked()) {
                            long dismissals = generation;
                            waiting = true;
                            work.awaitUninterruptibly(); // never interrupted; enqueue or dismissal signals
                            if (generation != dismissals) {
                                return; // dismissed: no longer the connection's writer
                            }
                            waiting = false;
                            continue;
                        }
                        running = false;
                        connection.parking.writerStoppedLocked();
                        return;
                    }
                    if (item instanceof HeadersOut headers
                            && !connection.streams.assignIdLocked(headers.stream())) {
                        continue; // reset before it left, or the connection stopped taking streams
                    }
                    maxFrameSize = connection.peerMaxFrameSizeLocked();
                } finally {
                    lock.unlock();
                }
                if (item == null) {
                    flush(out, ended);
                    continue;
                }
                out = encode(item, out, maxFrameSize, ended);
                if (item instanceof ControlOut control && control.closeAfter()) {
                    closeAfter = true;
                }
                if (closeAfter) {
                    flush(out, ended); // the GOAWAY, then the end
                    transport.close();
                    stop();
                    return;
                }
            }
        } catch (IOException | RuntimeException e) {
            transport.close();
            connection.failed(new IOException("writing to " + connection.origin() + " failed: " + e.getMessage(), e));
            stop();
        } finally {
            buffers.release(out);
        }
    }

    /**
     * The connection is done: drop what is still queued and wake callers waiting for room. A stream whose HEADERS
     * are dropped is in no map the connection's failure went through, and its caller waits for them to be written:
     * it fails here, as unprocessed (nothing of it left).
     */
    private void stop() {
        lock.lock();
        try {
            running = false;
            for (Outbound item : queue) {
                if (item instanceof DataOut data) {
                    buffers.release(data.payload());
                } else if (item instanceof HeadersOut headers) {
                    connection.streams.headersDroppedLocked(headers.stream(), connection.failureLocked());
                }
            }
            queue.clear();
            queuedData = 0;
            queuedControl = 0;
            roomFreedLocked();
        } finally {
            lock.unlock();
        }
    }

    /** Adds {@code item}'s frames to {@code out}, flushing first when they do not fit; returns the buffer used. */
    private ByteBuffer encode(Outbound item, ByteBuffer out, int maxFrameSize, List<Http2Stream> ended)
            throws IOException {
        switch (item) {
            case HeadersOut headers -> {
                blocks.peerMaxFrameSize(maxFrameSize);
                int length = blocks.maxLength(headers.fields());
                if (length > out.capacity()) {
                    flush(out, ended); // more than the write buffer holds: on its own
                    ByteBuffer large = ByteBuffer.allocate(length);
                    blocks.write(large, headers.stream().id, headers.fields(), headers.endStream());
                    write(large.flip());
                } else {
                    ensureRoom(out, length, ended);
                    blocks.write(out, headers.stream().id, headers.fields(), headers.endStream());
                }
                if (headers.endStream()) {
                    ended.add(headers.stream());
                }
            }
            case DataOut data -> {
                int length = data.payload().remaining();
                boolean send;
                lock.lock();
                try {
                    queuedData -= length;
                    roomFreedLocked();
                    send = connection.streams.dataStillWantedLocked(data.stream(), length);
                } finally {
                    lock.unlock();
                }
                if (send) {
                    ensureRoom(out, Http2Frame.HEADER_LENGTH + length, ended);
                    Http2FrameWriter.writeFrameHeader(out, length, Http2Frame.TYPE_DATA,
                            data.endStream() ? Http2Frame.FLAG_END_STREAM : 0, data.stream().id);
                    out.put(data.payload());
                    if (data.endStream()) {
                        ended.add(data.stream());
                    }
                }
                buffers.release(data.payload());
            }
            case ResetOut reset -> {
                int id;
                lock.lock();
                try {
                    id = reset.stream().id;
                } finally {
                    lock.unlock();
                }
                if (id != 0) {
                    RstStreamFrame frame = new RstStreamFrame(id, reset.error());
                    ensureRoom(out, Http2FrameWriter.encodedLength(frame), ended);
                    Http2FrameWriter.write(out, frame);
                }
            }
            case ControlOut control -> {
                ensureRoom(out, Http2FrameWriter.encodedLength(control.frame()), ended);
                Http2FrameWriter.write(out, control.frame());
            }
            case TableSizeOut size -> blocks.peerTableSize(size.headerTableSize());
        }
        return out;
    }

    private void ensureRoom(ByteBuffer out, int length, List<Http2Stream> ended) throws IOException {
        if (out.remaining() < length) {
            flush(out, ended);
        }
    }

    /** Writes what {@code out} holds, then tells the streams whose END_STREAM left. */
    private void flush(ByteBuffer out, List<Http2Stream> ended) throws IOException {
        if (out.position() > 0) {
            out.flip();
            write(out);
            out.clear();
        }
        if (!ended.isEmpty()) {
            lock.lock();
            try {
                connection.streams.endsWrittenLocked(ended);
            } finally {
                lock.unlock();
            }
            ended.clear();
        }
    }

    /** For tests: runs on the writer thread before each socket write (to stage a failure behind queued frames). */
    void beforeWrite(Runnable hook) {
        this.beforeWrite = hook;
    }

    private void write(ByteBuffer buffer) throws IOException {
        Runnable hook = beforeWrite;
        if (hook != null) {
            hook.run();
        }
        transport.write(buffer.array(), buffer.arrayOffset() + buffer.position(), buffer.remaining());
    }
}
