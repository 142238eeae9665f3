package dev.shuttle.client.http2;

import dev.shuttle.wire.http2.Http2ErrorCode;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * A request body on its way out as DATA frames: bytes gather in a pooled buffer of one frame's payload; a full buffer
 * (or {@link #finish}) waits for flow-control credit on the stream and the connection, then goes to the writer's
 * queue, which writes and gives the buffer back. So a caller blocks exactly while the server grants no window (or the
 * socket does not drain), never on the socket itself.
 *
 * <p>Owned by the thread writing the request. When the server has answered in full and stopped the stream, further
 * bytes are dropped: the request is over.
 */
final class Http2RequestBody extends OutputStream {
    private final Http2Connection connection;
    private final Http2Stream stream;
    private final Http2Exchange exchange;
    /** Payload being filled (write mode); null once given back or handed to the writer. */
    private ByteBuffer current;
    private long written;
    private boolean finished;
    private boolean stopped;

    Http2RequestBody(Http2Connection connection, Http2Stream stream, Http2Exchange exchange) {
        this.connection = connection;
        this.stream = stream;
        this.exchange = exchange;
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

    /** Hands the buffer to the writer in as many frames as the credit allows, waiting for credit as needed. */
    private void send(boolean endStream) throws IOException {
        ByteBuffer payload = current;
        current = null;
        payload.flip();
        long waitingSince = connection.clock.getAsLong();
        connection.lock.lock();
        try {
            do {
                int n = connection.reserveSendWindowLocked(stream, payload.remaining());
                ByteBuffer frame;
                if (n == payload.remaining()) {
                    frame = payload;
                    payload = null;
                } else {
                    frame = connection.buffers.acquire();
                    frame.put(payload.array(), payload.arrayOffset() + payload.position(), n).flip();
                    payload.position(payload.position() + n);
                }
                connection.sendDataLocked(stream, frame, endStream && payload == null);
                exchange.bodyBytesQueued(n);
                waitingSince = connection.clock.getAsLong();
            } while (payload != null);
        } catch (InterruptedException e) {
            InterruptedIOException interrupted = new InterruptedIOException("interrupted while sending the body");
            connection.resetLocked(stream, Http2ErrorCode.CANCEL, interrupted);
            Thread.currentThread().interrupt();
            throw interrupted;
        } catch (IOException e) {
            if (stream.failure == null && stream.remoteEnd) {
                stopped = true; // answered in full: the rest of the request is not wanted
                return;
            }
            if (exchange.abortReason() != null) {
                exchange.abortedWhileSending(waitingSince);
                throw exchange.abortReason();
            }
            throw e;
        } finally {
            connection.lock.unlock();
            if (payload != null) {
                connection.buffers.release(payload);
            }
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
