package dev.shuttle.server.http2;

import dev.shuttle.server.core.ServerConnection;
import dev.shuttle.transport.BufferPool;
import dev.shuttle.wire.http2.FieldBlockEncoder;
import dev.shuttle.wire.http2.Http2Frame;
import dev.shuttle.wire.http2.Http2FrameWriter;
import dev.shuttle.wire.http2.Http2Settings;
import dev.shuttle.wire.http2.SettingsFrame;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Everything that leaves an HTTP/2 connection, from any thread: the reader's control frames and every handler's
 * HEADERS and DATA. Frames are encoded under one lock, which orders them and guards the HPACK encoder (blocks must
 * reach the peer in the order they were encoded), into a pending buffer; one thread at a time, the flusher, writes
 * that buffer to the socket outside the lock. Frames encoded while the flusher writes wait in the next pending
 * buffer, and the flusher writes them too before it returns: the responses of streams that finish together leave in
 * one system call, and a handler whose frames the flusher takes returns without waiting for the socket. A flusher
 * whose frames end a stream while other handlers run gives them one scheduling turn first ({@link #flush}), so the
 * responses of the streams one read started leave together, as an event loop flushes once per read. At most one
 * pending buffer waits beside the one being written: a frame that does not fit waits for the flusher, which is how a
 * slow reader pushes back on every writer.
 *
 * <p>Each write goes through the connection's park gate ({@link ServerConnection#beginWrite},
 * {@link ServerConnection#writeShared}): on plaintext a write to a parked connection goes out through the
 * non-blocking channel as it is, taking the channel back from the watcher only if the socket's buffer fills; over TLS
 * the writer takes it back first, and the connection parks again after the last writer. Either way no write is
 * stranded behind a park.
 *
 * <p>Pending buffers are borrowed from the pool and returned once written, so a connection holds no write buffer
 * between writes.
 */
final class Http2Writer {
    private static final System.Logger LOG = System.getLogger(Http2Writer.class.getName());

    /** DATA frames are cut to this size at most, whatever the peer allows: one frame fits one pooled buffer. */
    static final int MAX_DATA_FRAME = Http2Settings.MIN_MAX_FRAME_SIZE;

    private static final VarHandle HANDLERS_UNDERWAY;

    static {
        try {
            HANDLERS_UNDERWAY = MethodHandles.lookup().findVarHandle(Http2Writer.class, "handlersUnderway", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final ServerConnection connection;
    private final BufferPool buffers;
    /** The one scheduling turn a flusher gives other handlers before it writes ({@link #flush}). */
    private final Runnable gatherTurn;
    private final ReentrantLock writeLock = new ReentrantLock();
    /**
     * Guarded by writeLock: signalled when the flusher took the pending buffer, or stopped. Made by the first writer
     * that waits, so an idle connection holds none.
     */
    private Condition taken;
    /** Guarded by writeLock: HPACK and the peer's limits on field blocks. */
    private final FieldBlockEncoder blocks = new FieldBlockEncoder();
    /** Guarded by writeLock: frames encoded and not yet taken by the flusher (write mode); never null without one. */
    private ByteBuffer pending;
    /** Guarded by writeLock: a thread is writing to the socket, and writes what lands in {@link #pending} after it. */
    private boolean flushing;
    /** Guarded by writeLock: we half-closed; later writes fail without touching the socket or closing it. */
    private boolean outputShut;
    /**
     * Handlers admitted and not yet done ({@link #handlerStarting}); a field rather than an AtomicInteger, as every
     * idle connection keeps its writer.
     */
    private volatile int handlersUnderway;
    /** A response's HEADERS or DATA went out since the reader last asked ({@link #takeResponseActivity}). */
    private volatile boolean responseActivity;

    Http2Writer(ServerConnection connection, BufferPool buffers, Runnable gatherTurn) {
        this.connection = connection;
        this.buffers = buffers;
        this.gatherTurn = gatherTurn;
    }

    /**
     * Whether the calling thread holds the write lock: the connection's listener events then wait for the
     * {@code endWrite} that follows every write, outside the lock.
     */
    boolean lockedByCurrentThread() {
        return writeLock.isHeldByCurrentThread();
    }

    /** The peer's SETTINGS took effect: its HPACK table size and frame size. */
    void peerSettings(Http2Settings settings) {
        writeLock.lock();
        try {
            blocks.peerSettings(settings);
        } finally {
            writeLock.unlock();
        }
    }

    /**
     * Refuses a write from a thread with an interrupt pending, keeping the interrupt: the JDK closes a channel whose
     * writer is interrupted, which would end every stream of the connection. Checked before anything is encoded or
     * any stream state changes, so a refused frame leaves no trace (no HPACK entry the peer never saw, no send credit
     * taken, no END_STREAM recorded).
     */
    static void refuseIfInterrupted() throws InterruptedIOException {
        if (Thread.currentThread().isInterrupted()) {
            throw new InterruptedIOException("interrupted: frame not written, the connection is shared");
        }
    }

    /** What {@link #acknowledgeSettings} applies while it holds the write lock. */
    interface SettingsChange {
        void apply() throws IOException;
    }

    /** Encodes control frames into the pending buffer, under the write lock. */
    private interface Encoding {
        void into(ByteBuffer out) throws IOException;
    }

    /**
     * Applies the peer's new settings and encodes their ACK in one hold of the write lock, so nothing they allow
     * (DATA in a window that grew) can reach the peer before the ACK: a client may discard frames while it waits for
     * its ACK (h2spec 6.9.2/1 does), and the ACK is the order in which peers expect to see settings take effect.
     */
    void acknowledgeSettings(Http2Settings settings, SettingsChange change) throws IOException {
        control(Http2FrameWriter.encodedLength(SettingsFrame.ACK), out -> {
            blocks.peerSettings(settings);
            change.apply();
            Http2FrameWriter.write(out, SettingsFrame.ACK);
        });
    }

    /**
     * Whether a response's HEADERS or DATA went out since the last call: a PING then comes from a client checking a
     * connection that serves it (keep-alive, bandwidth probes), not from one that only wants to be answered.
     */
    boolean takeResponseActivity() {
        boolean active = responseActivity;
        responseActivity = false;
        return active;
    }

    /**
     * Half-closes the connection after what was written, pending frames included: the client reads the end of the
     * stream (a TLS close_notify, then FIN), while its own bytes can still be read, so closing later sends no reset
     * that could destroy the tail of what we wrote. Later control frames are dropped, and a response's frames fail
     * with an IOException, leaving the connection to the reader. Idempotent.
     */
    void shutdownOutput() throws IOException {
        connection.beginWrite();
        try {
            writeLock.lock();
            try {
                while (flushing) {
                    takenLocked().awaitUninterruptibly();
                }
                if (!outputShut) {
                    outputShut = true;
                    connection.transport().shutdownOutput();
                }
            } finally {
                writeLock.unlock();
            }
        } finally {
            connection.endWrite();
        }
    }

    /** A control frame (SETTINGS, PING, WINDOW_UPDATE, RST_STREAM, GOAWAY) or any small frame. */
    void frame(Http2Frame frame) throws IOException {
        control(Http2FrameWriter.encodedLength(frame), out -> Http2FrameWriter.write(out, frame));
    }

    /** Several control frames in one write (the server's SETTINGS and its connection WINDOW_UPDATE). */
    void frames(List<Http2Frame> frames) throws IOException {
        int length = 0;
        for (Http2Frame frame : frames) {
            length += Http2FrameWriter.encodedLength(frame);
        }
        control(length, out -> {
            for (Http2Frame frame : frames) {
                Http2FrameWriter.write(out, frame);
            }
        });
    }

    /**
     * Control frames of {@code length} octets at most, encoded by {@code encoding}. After the half-close they are
     * dropped: the connection is closing, and nothing would read them.
     */
    private void control(int length, Encoding encoding) throws IOException {
        connection.beginWrite();
        try {
            boolean flusher;
            writeLock.lock();
            try {
                refuseIfInterrupted();
                ByteBuffer into = roomLocked(length);
                if (into == null) {
                    return;
                }
                int mark = into.position();
                try {
                    encoding.into(into);
                } catch (IOException | RuntimeException e) {
                    abandonLocked(mark);
                    throw e;
                }
                flusher = claimLocked();
            } finally {
                writeLock.unlock();
            }
            if (flusher) {
                flush(false);
            }
        } finally {
            connection.endWrite();
        }
    }

    /** A field block (response head or trailers) as HEADERS and CONTINUATION frames. */
    void headers(int streamId, List<String> fields, boolean endStream) throws IOException {
        writeFieldBlock(streamId, fields, endStream, null, 0, 0);
    }

    /**
     * A whole response in one write: its field block (HEADERS, CONTINUATION) and one DATA frame of at most
     * {@link #MAX_DATA_FRAME} octets with END_STREAM, whose window the caller has taken. Half the writes (and system
     * calls) of a small response sent head first, then body.
     */
    void headersAndData(int streamId, List<String> fields, byte[] bytes, int offset, int length) throws IOException {
        if (length > MAX_DATA_FRAME) {
            throw new IllegalArgumentException("DATA frame of " + length + " octets");
        }
        writeFieldBlock(streamId, fields, false, bytes, offset, length);
    }

    /** A field block, followed by one DATA frame with END_STREAM when {@code bytes} is not null. */
    private void writeFieldBlock(int streamId, List<String> fields, boolean endStream, byte[] bytes, int offset,
                                 int length) throws IOException {
        connection.beginWrite();
        try {
            boolean flusher;
            writeLock.lock();
            try {
                refuseIfInterrupted();
                int size = blocks.maxLength(fields) + (bytes == null ? 0 : Http2Frame.HEADER_LENGTH + length);
                ByteBuffer into = responseRoomLocked(size);
                int mark = into.position();
                try {
                    blocks.write(into, streamId, fields, endStream);
                } catch (RuntimeException e) {
                    abandonLocked(mark);
                    throw e;
                }
                if (bytes != null) {
                    Http2FrameWriter.writeFrameHeader(into, length, Http2Frame.TYPE_DATA, Http2Frame.FLAG_END_STREAM,
                            streamId);
                    into.put(bytes, offset, length);
                }
                responseActivity = true;
                flusher = claimLocked();
            } finally {
                writeLock.unlock();
            }
            if (flusher) {
                flush(endStream || bytes != null);
            }
        } finally {
            connection.endWrite();
        }
    }

    /**
     * One DATA frame of at most {@link #MAX_DATA_FRAME} octets, whose flow-control window the caller has taken; an
     * empty one may carry just END_STREAM.
     */
    void data(int streamId, byte[] bytes, int offset, int length, boolean endStream) throws IOException {
        if (length > MAX_DATA_FRAME) {
            throw new IllegalArgumentException("DATA frame of " + length + " octets");
        }
        connection.beginWrite();
        try {
            boolean flusher;
            writeLock.lock();
            try {
                refuseIfInterrupted();
                ByteBuffer into = responseRoomLocked(Http2Frame.HEADER_LENGTH + length);
                Http2FrameWriter.writeFrameHeader(into, length, Http2Frame.TYPE_DATA,
                        endStream ? Http2Frame.FLAG_END_STREAM : 0, streamId);
                into.put(bytes, offset, length);
                responseActivity = true;
                flusher = claimLocked();
            } finally {
                writeLock.unlock();
            }
            if (flusher) {
                flush(endStream);
            }
        } finally {
            connection.endWrite();
        }
    }

    /** {@link #roomLocked} for a response's frames, which fail once we half-closed. */
    private ByteBuffer responseRoomLocked(int length) throws IOException {
        ByteBuffer into = roomLocked(length);
        if (into == null) {
            throw new IOException("connection " + connection.id() + " is closing: no more frames");
        }
        return into;
    }

    /**
     * The pending buffer, with room for {@code length} more octets: the one the flusher will take next, else a new
     * one (pooled, or one-off when larger). Waits while the pending buffer is too full, until the flusher takes it.
     *
     * @return null when we half-closed, before or while waiting
     */
    private ByteBuffer roomLocked(int length) throws InterruptedIOException {
        assert writeLock.isHeldByCurrentThread();
        while (!outputShut && pending != null && pending.remaining() < length) {
            try {
                takenLocked().await(); // pending is never left without a flusher, which takes it after its write
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while the connection's earlier frames were written");
            }
        }
        if (outputShut) {
            return null;
        }
        if (pending == null) {
            pending = length <= buffers.bufferSize() ? buffers.acquire() : ByteBuffer.allocate(length);
        }
        return pending;
    }

    /**
     * Takes back what a failed encoding left in the pending buffer from {@code mark} on, so no partial frame is
     * written; a buffer left empty goes back.
     */
    private void abandonLocked(int mark) {
        assert writeLock.isHeldByCurrentThread();
        pending.position(mark);
        if (mark == 0) {
            buffers.release(pending);
            pending = null;
        }
    }

    /**
     * After encoding into the pending buffer: whether the caller is the flusher now (no other thread was), and must
     * call {@link #flush}; otherwise the running flusher writes what the caller encoded.
     */
    private boolean claimLocked() {
        assert writeLock.isHeldByCurrentThread();
        if (flushing) {
            return false;
        }
        flushing = true;
        return true;
    }

    /** The pending buffer, taken by the flusher to write; writers waiting for room may start a new one. */
    private ByteBuffer takeLocked() {
        assert writeLock.isHeldByCurrentThread();
        ByteBuffer out = pending;
        pending = null;
        signalTakenLocked();
        return out;
    }

    /**
     * A handler's stream starts: until {@link #handlerDone}, the frames that end other streams may wait one
     * scheduling turn for its response (see {@link #flush}). Counted when the reader admits the stream, so the
     * streams of one read count before their handlers run.
     */
    void handlerStarting() {
        HANDLERS_UNDERWAY.getAndAdd(this, 1);
    }

    void handlerDone() {
        HANDLERS_UNDERWAY.getAndAdd(this, -1);
    }

    /**
     * The flusher's job, outside the write lock: writes the pending buffer, then whatever other threads encoded
     * meanwhile, until nothing is pending. A failure of our own write is thrown; a failure while writing other
     * threads' frames is not (the connection is closed, and its streams fail with it).
     *
     * <p>When the caller's frames end a stream while another stream's handler is underway, the flusher first yields
     * its carrier once: the handlers started by the same read (queued behind it) then encode their responses into
     * the pending buffer, and all of them leave in one system call, as an event loop flushes once per read. One turn
     * at most, so a slow handler delays no one by more than that.
     *
     * @param endsStream the caller's frames end its stream
     */
    private void flush(boolean endsStream) throws IOException {
        if (endsStream && handlersUnderway > 1) {
            gatherTurn.run();
        }
        ByteBuffer out;
        writeLock.lock();
        try {
            out = takeLocked();
            flushing = out != null; // never null here (only the flusher takes); a flag left set would stop every writer
        } finally {
            writeLock.unlock();
        }
        boolean own = true;
        while (out != null) {
            // An interrupt that came after our own frames must not close the channel under other streams' frames.
            boolean interrupted = !own && Thread.interrupted();
            try {
                write(out);
            } catch (IOException | RuntimeException e) {
                stopFlushing();
                if (own || e instanceof RuntimeException) {
                    throw e;
                }
                LOG.log(System.Logger.Level.DEBUG, "connection {0}: frames of other streams not written: {1}",
                        connection.id(), e.toString());
                return;
            } finally {
                buffers.release(out);
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
            }
            own = false;
            writeLock.lock();
            try {
                out = takeLocked();
                flushing = out != null;
            } finally {
                writeLock.unlock();
            }
        }
    }

    private Condition takenLocked() {
        assert writeLock.isHeldByCurrentThread();
        if (taken == null) {
            taken = writeLock.newCondition();
        }
        return taken;
    }

    private void signalTakenLocked() {
        assert writeLock.isHeldByCurrentThread();
        if (taken != null) {
            taken.signalAll();
        }
    }

    /** After a failed write: what was pending is dropped with the connection, and waiting writers go on to fail. */
    private void stopFlushing() {
        writeLock.lock();
        try {
            buffers.release(pending);
            pending = null;
            flushing = false;
            signalTakenLocked();
        } finally {
            writeLock.unlock();
        }
    }

    /**
     * Writes {@code out} (write mode) to the transport, by the flusher only; a failure closes the connection, whose
     * streams then fail.
     */
    private void write(ByteBuffer out) throws IOException {
        out.flip();
        int length = out.remaining();
        try {
            connection.writeShared(out.array(), out.arrayOffset() + out.position(), length);
            connection.countWritten(length);
        } catch (IOException e) {
            connection.closeNow();
            throw e;
        }
    }
}
