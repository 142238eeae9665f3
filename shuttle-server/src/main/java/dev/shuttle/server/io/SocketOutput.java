package dev.shuttle.server.io;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * The write side of a server connection: a pooled write buffer in front of the channel's blocking socket adaptor
 * stream. Heads and small bodies leave in one write. Each socket write is stamped with its start time so the
 * {@link WriteWatchdog} can close a connection whose peer stopped reading (a blocking write has no timeout of its
 * own), and counted once the socket accepted it.
 *
 * <p>Ownership: the buffer is attached while the connection is active; writes and flushes happen on the connection's
 * virtual thread. {@link #bytesWritten()} and {@link #writeStartedNanos()} may be read from any thread.
 * {@code close()} only flushes: closing the socket is the connection's job.
 */
public final class SocketOutput extends OutputStream {
    /** Large writes go out in slices so the written-bytes counter moves while a slow peer reads. */
    private static final int MAX_SOCKET_WRITE = 64 * 1024;

    private final OutputStream out;
    private final LongSupplier nanoClock;

    /** Owned by the connection thread; null while parked. Write mode: position = bytes buffered. */
    private ByteBuffer buffer;
    /** Written only by the connection thread, read by any. */
    private volatile long bytesWritten;
    /** nanoTime when the current socket write began, or {@link WriteWatchdog#NOT_WRITING}; read by the watchdog. */
    private volatile long writeStartedNanos = WriteWatchdog.NOT_WRITING;

    public SocketOutput(SocketChannel channel, LongSupplier nanoClock) throws IOException {
        this.out = channel.socket().getOutputStream();
        this.nanoClock = nanoClock;
    }

    public void attach(ByteBuffer writeBuffer) {
        if (buffer != null) {
            throw new IllegalStateException("a write buffer is already attached");
        }
        this.buffer = writeBuffer.clear();
    }

    /** Gives the buffer back, dropping any unflushed bytes (call {@link #flush()} first to keep them). */
    public ByteBuffer detach() {
        ByteBuffer detached = buffer;
        buffer = null;
        return detached;
    }

    public boolean isAttached() {
        return buffer != null;
    }

    public long bytesWritten() {
        return bytesWritten;
    }

    /** nanoTime when the socket write in progress began, or {@link WriteWatchdog#NOT_WRITING}. */
    public long writeStartedNanos() {
        return writeStartedNanos;
    }

    @Override
    public void write(int b) throws IOException {
        if (!buffer.hasRemaining()) {
            flushBuffer();
        }
        buffer.put((byte) b);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        if (len >= buffer.capacity()) {
            flushBuffer();
            writeToSocket(b, off, len);
            return;
        }
        if (len > buffer.remaining()) {
            flushBuffer();
        }
        buffer.put(b, off, len);
    }

    /** Pushes buffered bytes to the socket. */
    @Override
    public void flush() throws IOException {
        if (buffer != null) {
            flushBuffer();
        }
    }

    @Override
    public void close() throws IOException {
        flush();
    }

    private void flushBuffer() throws IOException {
        if (buffer.position() > 0) {
            writeToSocket(buffer.array(), buffer.arrayOffset(), buffer.position());
            buffer.clear();
        }
    }

    private void writeToSocket(byte[] b, int off, int len) throws IOException {
        int end = off + len;
        while (off < end) {
            int slice = Math.min(MAX_SOCKET_WRITE, end - off);
            writeStartedNanos = nanoClock.getAsLong();
            try {
                out.write(b, off, slice);
            } finally {
                writeStartedNanos = WriteWatchdog.NOT_WRITING;
            }
            bytesWritten += slice;
            off += slice;
        }
    }
}
