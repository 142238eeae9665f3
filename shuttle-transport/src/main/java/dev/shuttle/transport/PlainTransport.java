package dev.shuttle.transport;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SocketChannel;
import java.util.function.LongSupplier;

/** Plaintext TCP: application bytes are socket bytes, and nothing is buffered here. */
public final class PlainTransport extends Transport {
    /**
     * {@code buffers} is not kept (plaintext borrows none): the parameter keeps both transports made alike by their
     * callers.
     */
    public PlainTransport(SocketChannel channel, BufferPool buffers, LongSupplier nanoClock) throws IOException {
        super(channel, nanoClock);
    }

    @Override
    public int read(ByteBuffer dst, int timeoutMillis) throws IOException {
        return readSocket(dst, timeoutMillis);
    }

    @Override
    public int readNow(ByteBuffer dst) throws IOException {
        return readSocketNow(dst);
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
        writeSocket(bytes, offset, length);
    }

    @Override
    public boolean writesWhileParked() {
        return true;
    }

    @Override
    public int writeParked(byte[] bytes, int offset, int length) throws IOException {
        return writeChannel(bytes, offset, length);
    }

    /**
     * Sends up to {@code count} bytes of {@code file} from {@code position} straight from the file to the socket
     * ({@code sendfile} on Linux): no copy through the Java heap. Does not wait for room: returns 0 when the socket's
     * buffer is full (the caller then waits in an ordinary blocking write) or the file has no byte at
     * {@code position}. The channel must be in blocking mode, owned by the calling thread.
     */
    public long transferFrom(FileChannel file, long position, long count) throws IOException {
        return transferFile(file, position, count);
    }

    @Override
    public void shutdownOutput() throws IOException {
        channel.shutdownOutput();
    }

    @Override
    public boolean hasBufferedInput() {
        return false;
    }

    @Override
    public void releaseBuffers() {
        dropStreams(); // no pooled buffer held
    }

    @Override
    public String toString() {
        return "PlainTransport[" + localAddress() + " -> " + remoteAddress() + "]";
    }
}
