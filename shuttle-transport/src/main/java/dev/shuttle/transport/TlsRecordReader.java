package dev.shuttle.transport;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;

/**
 * Turns received TLS records into application bytes, and holds the buffers that takes: records are read into
 * {@code netIn} and decrypted straight into the caller's buffer; a record too large for the room the caller has left
 * is decrypted into {@code appPending} and handed out from there. Records without application data (a TLS 1.3 session
 * ticket, a key update) are consumed and the read goes on; the engine work they ask for goes through the
 * {@link TlsRecordWriter}.
 *
 * <p>Buffers come from the {@link BufferPool} while bytes move and go back in {@link #releaseBuffers()}; while idle it
 * holds at most a partial record, in an array of its exact size. Everything here is owned by the connection's reading
 * thread (before the handshake ends, the handshaking one).
 */
final class TlsRecordReader {
    /** TLS record header: type, version, 2-byte length. */
    private static final int RECORD_HEADER_BYTES = 5;
    /** {@link #decryptIntoPending}'s answer for a record that carried no application bytes (a session ticket). */
    private static final int RECORD_WITHOUT_DATA = -2;
    /** {@link #firstBytes} once the handshake is over: nothing more to recognise, nothing kept per connection. */
    private static final byte[] HANDSHAKE_DONE = new byte[0];

    private final Transport transport;
    private final SSLEngine engine;
    private final BufferPool buffers;
    private final TlsRecordWriter writer;

    /** Received records, read mode; null while idle. Reading thread only. */
    private ByteBuffer netIn;
    /** A partial record kept while idle, or null. Reading thread only. */
    private byte[] carry;
    /** Decrypted bytes that did not fit the caller's buffer, read mode; null when none were needed. Reading thread. */
    private ByteBuffer appPending;
    /** The peer's close_notify arrived. Reading thread only. */
    private boolean inboundDone;
    /**
     * The first bytes the peer sent during the handshake, to recognise a plaintext HTTP answer; null until some
     * arrive, {@link #HANDSHAKE_DONE} after the handshake. Handshaking thread only.
     */
    private byte[] firstBytes;

    TlsRecordReader(Transport transport, SSLEngine engine, BufferPool buffers, TlsRecordWriter writer) {
        this.transport = transport;
        this.engine = engine;
        this.buffers = buffers;
        this.writer = writer;
    }

    /** Takes {@code received} as the first bytes from the peer; before any read only. */
    void prepend(ByteBuffer received) {
        if (netIn != null || carry != null) {
            throw new IllegalStateException("input already started");
        }
        carry = new byte[received.remaining()];
        received.duplicate().get(carry);
    }

    /** One unwrap while handshaking; false when more bytes must be read first. */
    boolean unwrapDuringHandshake() throws IOException {
        ensureNetIn();
        if (!netIn.hasRemaining()) {
            return false;
        }
        // Application bytes may follow the handshake in the same flight (a server's 0.5-RTT data): keep them.
        SSLEngineResult result = unwrapIntoPending();
        return switch (result.getStatus()) {
            case OK -> true;
            case BUFFER_UNDERFLOW -> {
                growNetInIfFull();
                yield false;
            }
            case BUFFER_OVERFLOW -> throw new SSLException("TLS record larger than the application buffer");
            case CLOSED -> throw new SSLHandshakeException("the peer closed TLS during the handshake");
        };
    }

    /** The handshake is over: the first bytes are no longer needed for its error message. */
    void handshakeDone() {
        firstBytes = HANDSHAKE_DONE;
    }

    /** Whether the peer's first bytes were a plaintext HTTP answer, not TLS. */
    boolean peerSpokePlaintextHttp() {
        return firstBytes != null && new String(firstBytes, StandardCharsets.ISO_8859_1).startsWith("HTTP/");
    }

    /**
     * Application bytes from what is already here: pending decrypted bytes first, then complete records.
     *
     * @return bytes given, 0 when a socket read is needed, -1 after the peer's close_notify
     */
    int takeDecoded(ByteBuffer dst) throws IOException {
        if (appPending != null && appPending.hasRemaining()) {
            return copyPending(dst);
        }
        if (inboundDone) {
            return -1;
        }
        ensureNetIn();
        while (netIn.hasRemaining()) {
            int before = dst.position();
            SSLEngineResult result = engine.unwrap(netIn, dst);
            writer.finishEngineWork(result.getHandshakeStatus());
            switch (result.getStatus()) {
                case OK -> {
                    int produced = dst.position() - before;
                    if (produced > 0) {
                        return produced;
                    }
                    // a record without application data: go on with the next one
                }
                case BUFFER_UNDERFLOW -> {
                    growNetInIfFull();
                    return 0;
                }
                case BUFFER_OVERFLOW -> {
                    int n = decryptIntoPending(dst);
                    if (n != RECORD_WITHOUT_DATA) {
                        return n;
                    }
                    // a record without application data that looked too large for the room left: go on
                }
                case CLOSED -> {
                    inboundDone = true;
                    return -1;
                }
            }
        }
        return 0;
    }

    /**
     * The caller's buffer has too little room for the next record: decrypt it aside and hand out what fits.
     *
     * @return bytes given, -1 after close_notify, 0 when the record is incomplete, or {@link #RECORD_WITHOUT_DATA}
     */
    private int decryptIntoPending(ByteBuffer dst) throws IOException {
        SSLEngineResult result = unwrapIntoPending();
        writer.finishEngineWork(result.getHandshakeStatus());
        switch (result.getStatus()) {
            case OK -> {
            }
            case CLOSED -> inboundDone = true;
            case BUFFER_UNDERFLOW -> {
                // JSSE judges the room from the record's header before it checks that the record is complete
                growNetInIfFull();
                return 0;
            }
            case BUFFER_OVERFLOW -> throw new SSLException("TLS record larger than the application buffer size");
        }
        if (appPending.hasRemaining()) {
            return copyPending(dst);
        }
        return inboundDone ? -1 : RECORD_WITHOUT_DATA;
    }

    /** One unwrap from {@code netIn} into {@code appPending}, which is left in read mode. */
    private SSLEngineResult unwrapIntoPending() throws SSLException {
        ByteBuffer app = pendingForWriting();
        try {
            return engine.unwrap(netIn, app);
        } finally {
            app.flip();
        }
    }

    private int copyPending(ByteBuffer dst) {
        int n = Math.min(dst.remaining(), appPending.remaining());
        ByteBuffer slice = appPending.slice(appPending.position(), n);
        dst.put(slice);
        appPending.position(appPending.position() + n);
        return n;
    }

    /** {@code appPending} in write mode with its unread bytes compacted to the front; allocated on first use. */
    private ByteBuffer pendingForWriting() {
        int needed = engine.getSession().getApplicationBufferSize();
        if (appPending == null) {
            appPending = needed <= buffers.bufferSize() ? buffers.acquire() : ByteBuffer.allocate(needed);
            return appPending;
        }
        appPending.compact();
        if (appPending.remaining() < needed) {
            ByteBuffer larger = ByteBuffer.allocate(appPending.position() + needed);
            appPending.flip();
            larger.put(appPending);
            buffers.release(appPending);
            appPending = larger;
        }
        return appPending;
    }

    /**
     * Reads more records into {@code netIn}: blocking with a timeout, or one non-blocking read.
     *
     * @return bytes read, 0 (non-blocking, nothing there), or -1 at the end of the stream
     */
    int readNet(int timeoutMillis, boolean blocking) throws IOException {
        ensureNetIn();
        netIn.compact();
        int n;
        try {
            if (!netIn.hasRemaining()) {
                throw new SSLException("TLS record larger than " + netIn.capacity() + " bytes");
            }
            int start = netIn.position();
            n = blocking ? transport.readSocket(netIn, timeoutMillis) : transport.readSocketNow(netIn);
            if (firstBytes == null && n > 0) {
                int count = Math.min(RECORD_HEADER_BYTES, netIn.position() - start);
                firstBytes = new byte[count];
                netIn.get(start, firstBytes);
            }
        } finally {
            netIn.flip();
        }
        return n;
    }

    /** A record larger than the buffer (JSSE's large-fragment mode): move to a buffer of the session's packet size. */
    private void growNetInIfFull() {
        if (netIn.position() == 0 && netIn.limit() == netIn.capacity()) {
            ByteBuffer larger = ByteBuffer.allocate(Math.max(netIn.capacity() * 2,
                    engine.getSession().getPacketBufferSize()));
            larger.put(netIn).flip();
            buffers.release(netIn);
            netIn = larger;
        }
    }

    private void ensureNetIn() {
        if (netIn == null) {
            netIn = buffers.acquireEmpty();
            if (carry != null) {
                netIn.clear();
                netIn.put(carry).flip();
                carry = null;
            }
        }
    }

    /** Whether decrypted bytes or a complete record wait here, read from the socket but not yet given out. */
    boolean hasBufferedInput() {
        if (appPending != null && appPending.hasRemaining()) {
            return true;
        }
        if (netIn == null || netIn.remaining() < RECORD_HEADER_BYTES) {
            return false;
        }
        int p = netIn.position();
        int length = ((netIn.get(p + 3) & 0xff) << 8) | (netIn.get(p + 4) & 0xff);
        return netIn.remaining() >= RECORD_HEADER_BYTES + length;
    }

    /** Gives pooled buffers back, keeping a partial record in an array of its exact size. */
    void releaseBuffers() {
        if (netIn != null) {
            if (netIn.hasRemaining()) {
                carry = new byte[netIn.remaining()];
                netIn.get(carry);
            }
            buffers.release(netIn);
            netIn = null;
        }
        if (appPending != null && !appPending.hasRemaining()) {
            buffers.release(appPending);
            appPending = null;
        }
    }

    /** Bytes kept from the handshake for its error message (0 once it is over). */
    int handshakeBytesKept() {
        return firstBytes == null ? 0 : firstBytes.length;
    }

    /** Whether any buffer is held right now (exact only while no thread uses the connection). */
    boolean holdsBuffers() {
        return netIn != null || appPending != null;
    }
}
