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
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Everything that leaves an HTTP/2 connection, from any thread: the reader's control frames and every handler's
 * HEADERS and DATA. One write lock orders the frames and guards the HPACK encoder (blocks must reach the peer in the
 * order they were encoded). Each write goes through the connection's park gate
 * ({@link ServerConnection#beginWrite}, {@link ServerConnection#writeShared}): on plaintext a write to a parked
 * connection goes out through the non-blocking channel as it is, taking the channel back from the watcher only if
 * the socket's buffer fills; over TLS the writer takes it back first, and the connection parks again after the last
 * writer. Either way no write is stranded behind a park.
 *
 * <p>Frames are encoded into a buffer borrowed from the pool for the one write and returned after it, so a
 * connection holds no write buffer between writes.
 */
final class Http2Writer {
    /** DATA frames are cut to this size at most, whatever the peer allows: one frame fits one pooled buffer. */
    static final int MAX_DATA_FRAME = Http2Settings.MIN_MAX_FRAME_SIZE;

    private final ServerConnection connection;
    private final BufferPool buffers;
    private final ReentrantLock writeLock = new ReentrantLock();
    /** Guarded by writeLock: HPACK and the peer's limits on field blocks. */
    private final FieldBlockEncoder blocks = new FieldBlockEncoder();
    /** Guarded by writeLock: we half-closed; later writes fail without touching the socket or closing it. */
    private boolean outputShut;
    /** A response's HEADERS or DATA went out since the reader last asked ({@link #takeResponseActivity}). */
    private volatile boolean responseActivity;

    Http2Writer(ServerConnection connection, BufferPool buffers) {
        this.connection = connection;
        this.buffers = buffers;
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

    /** Encodes frames into the pooled buffer of one write, under the write lock. */
    private interface Encoding {
        void into(ByteBuffer out) throws IOException;
    }

    /**
     * Applies the peer's new settings and writes their ACK in one hold of the write lock, so nothing they allow
     * (DATA in a window that grew) can reach the peer before the ACK: a client may discard frames while it waits for
     * its ACK (h2spec 6.9.2/1 does), and the ACK is the order in which peers expect to see settings take effect.
     */
    void acknowledgeSettings(Http2Settings settings, SettingsChange change) throws IOException {
        writePooled(out -> {
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
     * Half-closes the connection after what was written: the client reads the end of the stream (a TLS close_notify,
     * then FIN), while its own bytes can still be read, so closing later sends no reset that could destroy the tail of
     * what we wrote. Later control frames are dropped, and a response's frames fail with an IOException, leaving
     * the connection to the reader. Idempotent.
     */
    void shutdownOutput() throws IOException {
        connection.beginWrite();
        try {
            writeLock.lock();
            try {
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
        writePooled(out -> Http2FrameWriter.write(out, frame));
    }

    /** Several control frames in one write (the server's SETTINGS and its connection WINDOW_UPDATE). */
    void frames(List<Http2Frame> frames) throws IOException {
        writePooled(out -> {
            for (Http2Frame frame : frames) {
                Http2FrameWriter.write(out, frame);
            }
        });
    }

    /**
     * One write of what {@code encoding} puts into a pooled buffer, through the park gate and under the lock. After
     * the half-close such control frames are dropped: the connection is closing, and nothing would read them.
     */
    private void writePooled(Encoding encoding) throws IOException {
        connection.beginWrite();
        try {
            writeLock.lock();
            try {
                if (outputShut) {
                    return;
                }
                refuseIfInterrupted();
                ByteBuffer out = buffers.acquire();
                try {
                    encoding.into(out);
                    flip(out);
                } finally {
                    buffers.release(out);
                }
            } finally {
                writeLock.unlock();
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

    /**
     * A field block, followed in the same write by one DATA frame with END_STREAM when {@code bytes} is not null.
     * Writes larger than a pooled buffer get a one-off array.
     */
    private void writeFieldBlock(int streamId, List<String> fields, boolean endStream, byte[] bytes, int offset,
                                 int length) throws IOException {
        connection.beginWrite();
        try {
            writeLock.lock();
            ByteBuffer out = null;
            try {
                refuseIfInterrupted();
                int size = blocks.maxLength(fields) + (bytes == null ? 0 : Http2Frame.HEADER_LENGTH + length);
                out = size <= buffers.bufferSize() ? buffers.acquire() : ByteBuffer.allocate(size);
                blocks.write(out, streamId, fields, endStream);
                responseActivity = true;
                if (bytes != null) {
                    Http2FrameWriter.writeFrameHeader(out, length, Http2Frame.TYPE_DATA, Http2Frame.FLAG_END_STREAM,
                            streamId);
                    out.put(bytes, offset, length);
                }
                flip(out);
            } finally {
                buffers.release(out);
                writeLock.unlock();
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
            writeLock.lock();
            ByteBuffer out = null;
            try {
                refuseIfInterrupted();
                out = buffers.acquire();
                Http2FrameWriter.writeFrameHeader(out, length, Http2Frame.TYPE_DATA,
                        endStream ? Http2Frame.FLAG_END_STREAM : 0, streamId);
                out.put(bytes, offset, length);
                responseActivity = true;
                flip(out);
            } finally {
                buffers.release(out);
                writeLock.unlock();
            }
        } finally {
            connection.endWrite();
        }
    }

    /**
     * Writes {@code out} (write mode) to the transport, under the write lock; a failure closes the connection, whose
     * streams then fail, unless we half-closed it: then the reader closes it once the client has read what we sent.
     */
    private void flip(ByteBuffer out) throws IOException {
        assert writeLock.isHeldByCurrentThread();
        if (outputShut) {
            throw new IOException("connection " + connection.id() + " is closing: no more frames");
        }
        out.flip();
        try {
            int length = out.remaining();
            connection.writeShared(out.array(), out.arrayOffset() + out.position(), length);
            connection.countWritten(length);
        } catch (IOException e) {
            connection.closeNow();
            throw e;
        }
    }
}
