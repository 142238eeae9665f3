package dev.shuttle.wire.testing;

import dev.shuttle.wire.http2.Http2Exception;
import dev.shuttle.wire.http2.Http2Frame;
import dev.shuttle.wire.http2.Http2FrameReader;
import dev.shuttle.wire.http2.Http2FrameWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Frame I/O over one blocking socket, for either end of an HTTP/2 connection in a test: writes the frames or bytes it
 * is given, valid or not, in one socket write each, and reads frames exactly as they arrived. Every read is bounded by
 * the read timeout; when it expires the test fails with {@link ReadTimedOut}, which names the side that stayed silent.
 * Owned by one reading thread; one other thread may write at the same time (the socket's streams allow it).
 */
final class FrameChannel implements AutoCloseable {
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    /** Who is at the other end ("server" or "client"), for failure messages. */
    private final String remote;
    private final Http2FrameReader reader = new Http2FrameReader();
    /** Read mode between calls. Owned by the reading thread, as are the fields below. */
    private final ByteBuffer received = ByteBuffer.allocate(reader.requiredBufferSize()).flip();
    private int readTimeoutMillis;
    private boolean ended;
    /** The connection ended with a TCP reset rather than the other side's FIN. */
    private boolean endedByReset;

    /** A read that found no frame within the read timeout: the test fails, saying who stayed silent. */
    static final class ReadTimedOut extends AssertionError {
        ReadTimedOut(String message, SocketTimeoutException cause) {
            super(message, cause);
        }
    }

    FrameChannel(Socket connected, String remote, int readTimeoutMillis) throws IOException {
        this.socket = connected;
        this.remote = remote;
        this.readTimeoutMillis = readTimeoutMillis;
        socket.setSoTimeout(readTimeoutMillis);
        socket.setTcpNoDelay(true);
        in = socket.getInputStream();
        out = socket.getOutputStream();
    }

    Socket socket() {
        return socket;
    }

    String remote() {
        return remote;
    }

    /** {@code frames} in one socket write: the other side reads them together. */
    void send(List<? extends Http2Frame> frames) throws IOException {
        int length = 0;
        for (Http2Frame frame : frames) {
            length += Http2FrameWriter.encodedLength(frame);
        }
        ByteBuffer bytes = ByteBuffer.allocate(length);
        for (Http2Frame frame : frames) {
            Http2FrameWriter.write(bytes, frame);
        }
        write(bytes.flip());
    }

    /** Writes the remaining bytes of a heap buffer in read mode, in one socket write. */
    void write(ByteBuffer readMode) throws IOException {
        out.write(readMode.array(), readMode.arrayOffset() + readMode.position(), readMode.remaining());
        out.flush();
    }

    void write(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    /**
     * The next frame as it arrived (CONTINUATION not joined), or null once the connection ended by FIN or reset. A
     * frame the codec refuses is an {@link IOException}: Shuttle must never send one.
     */
    Http2Frame read() throws IOException {
        if (ended) {
            return null;
        }
        while (true) {
            Http2Frame frame;
            try {
                frame = reader.read(received);
            } catch (Http2Exception e) {
                throw new IOException("the " + remote + " sent an invalid frame", e);
            }
            if (frame != null) {
                return frame;
            }
            if (!fill()) {
                ended = true;
                return null;
            }
        }
    }

    /** Reads more bytes; false at the end of the connection. */
    private boolean fill() throws IOException {
        received.compact();
        try {
            int n = in.read(received.array(), received.position(), received.remaining());
            if (n < 0) {
                return false;
            }
            received.position(received.position() + n);
            return true;
        } catch (SocketTimeoutException e) {
            throw new ReadTimedOut("no frame from the " + remote + " within " + readTimeoutMillis + " ms", e);
        } catch (IOException e) {
            endedByReset = true; // as good as the end here, but remembered
            return false;
        } finally {
            received.flip();
        }
    }

    /** Whether the connection ended with a TCP reset instead of a FIN (once {@link #read} saw the end). */
    boolean endedByReset() {
        return endedByReset;
    }

    /** Every frame until none arrives for {@code quietMillis} or the connection ends. */
    List<Http2Frame> drain(int quietMillis) throws IOException {
        List<Http2Frame> frames = new ArrayList<>();
        int previous = readTimeoutMillis;
        readTimeout(quietMillis);
        try {
            for (Http2Frame frame; (frame = read()) != null; ) {
                frames.add(frame);
            }
        } catch (ReadTimedOut quiet) {
            // quiet: done
        } finally {
            readTimeout(previous);
        }
        return frames;
    }

    int readTimeoutMillis() {
        return readTimeoutMillis;
    }

    void readTimeout(int millis) throws IOException {
        readTimeoutMillis = millis;
        socket.setSoTimeout(millis);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
