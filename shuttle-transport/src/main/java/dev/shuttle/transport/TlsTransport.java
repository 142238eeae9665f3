package dev.shuttle.transport;

import dev.shuttle.transport.tls.TlsInfo;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;
import java.util.function.Function;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSession;

/**
 * TLS over a socket with JSSE's {@link SSLEngine}, not {@code SSLSocket}: the engine is plain state, so a parked
 * connection keeps it and nothing else. Record buffers come from the {@link BufferPool} while bytes move and go back
 * in {@link #releaseBuffers()}; an idle TLS connection holds the engine, and at most a partial record in an array of
 * its exact size.
 *
 * <p>Reading: records are read into {@code netIn} and decrypted straight into the caller's buffer. A record too large
 * for the room the caller has left is decrypted into {@code appPending} and handed out from there. Records without
 * application data (a TLS 1.3 session ticket, a key update) are consumed and the read goes on. The engine's
 * handshake work during a read (tasks, and the wraps a key update or renegotiation asks for) is done on the reading
 * thread. Writing: each call wraps into a borrowed record buffer and writes it out, under {@code wrapLock}, which
 * the reading thread also takes for the wraps it must do.
 *
 * <p>Threads: one reading thread and one writing thread at a time, as {@link Transport} says; the engine allows a
 * wrap and an unwrap to run concurrently.
 */
public final class TlsTransport extends Transport {
    /** TLS record header: type, version, 2-byte length. */
    private static final int RECORD_HEADER_BYTES = 5;
    /** {@link #decryptIntoPending}'s answer for a record that carried no application bytes (a session ticket). */
    private static final int RECORD_WITHOUT_DATA = -2;

    private final SSLEngine engine;
    private final BufferPool buffers;
    /** Serialises wraps: application writes, handshake messages, key updates, close_notify. */
    private final ReentrantLock wrapLock = new ReentrantLock();
    /**
     * The source of a wrap that sends no application bytes (handshake messages, close_notify): one for every
     * connection, read-only and empty, so no wrap can change it (an idle connection should not carry its own).
     */
    private static final ByteBuffer NO_BYTES = ByteBuffer.allocate(0).asReadOnlyBuffer();
    /** {@link #firstBytes} once the handshake is over: nothing more to recognise, nothing kept per connection. */
    private static final byte[] HANDSHAKE_DONE = new byte[0];

    // Owned by the reading thread (or, before the handshake ends, the handshaking one).
    /** Received records, read mode; null while idle. */
    private ByteBuffer netIn;
    /** A partial record kept while idle, or null. */
    private byte[] carry;
    /** Decrypted bytes that did not fit the caller's buffer, read mode; null when none were ever needed. */
    private ByteBuffer appPending;
    /** The peer's close_notify arrived. */
    private boolean inboundDone;
    /**
     * The first bytes the peer sent during the handshake, to recognise a plaintext HTTP answer; null until some
     * arrive, {@link #HANDSHAKE_DONE} after the handshake.
     */
    private byte[] firstBytes;

    private volatile TlsInfo info;

    private TlsTransport(SocketChannel channel, BufferPool buffers, LongSupplier nanoClock, SSLEngine engine)
            throws IOException {
        super(channel, nanoClock);
        this.engine = engine;
        this.buffers = buffers;
    }

    /**
     * The client side of a connection to {@code host}: SNI for host names, hostname verification when asked (RFC
     * 2818/6125 rules, done by JSSE's trust manager), ALPN offering {@code protocols} in order of preference, and
     * session resumption through the context's client session cache (keyed by host and port).
     */
    public static TlsTransport client(SocketChannel channel, BufferPool buffers, LongSupplier nanoClock,
                                      SSLContext context, String host, int port, List<String> protocols,
                                      boolean verifyHostname) throws IOException {
        SSLEngine engine = context.createSSLEngine(host, port);
        engine.setUseClientMode(true);
        SSLParameters parameters = engine.getSSLParameters();
        if (verifyHostname) {
            parameters.setEndpointIdentificationAlgorithm("HTTPS");
        }
        if (!isAddressLiteral(host)) {
            parameters.setServerNames(List.of(new SNIHostName(host)));
        }
        if (!protocols.isEmpty()) {
            parameters.setApplicationProtocols(protocols.toArray(String[]::new));
        }
        engine.setSSLParameters(parameters);
        return new TlsTransport(channel, buffers, nanoClock, engine);
    }

    /**
     * The server side: {@code selectProtocol} picks the ALPN protocol from the client's offer (it returns null to
     * refuse the handshake with {@code no_application_protocol}, or "" to use none); the server's cipher-suite
     * order wins.
     */
    public static TlsTransport server(SocketChannel channel, BufferPool buffers, LongSupplier nanoClock,
                                      SSLContext context, Function<List<String>, String> selectProtocol)
            throws IOException {
        SSLEngine engine = context.createSSLEngine();
        engine.setUseClientMode(false);
        SSLParameters parameters = engine.getSSLParameters();
        parameters.setUseCipherSuitesOrder(true);
        engine.setSSLParameters(parameters);
        engine.setHandshakeApplicationProtocolSelector((e, offered) -> selectProtocol.apply(offered));
        return new TlsTransport(channel, buffers, nanoClock, engine);
    }

    private static boolean isAddressLiteral(String host) {
        if (host.indexOf(':') >= 0) {
            return true; // IPv6
        }
        for (int i = 0; i < host.length(); i++) {
            char c = host.charAt(i);
            if (c != '.' && (c < '0' || c > '9')) {
                return false;
            }
        }
        return true;
    }

    /**
     * Bytes the caller read from the socket before this transport took over (a server that looked at the first bytes
     * to tell TLS from plaintext): they are taken as the first received. Call before the handshake.
     */
    public void prepend(ByteBuffer received) {
        if (netIn != null || carry != null) {
            throw new IllegalStateException("input already started");
        }
        carry = new byte[received.remaining()];
        received.duplicate().get(carry);
    }

    /**
     * Runs the handshake on the calling thread, within {@code timeoutMillis} in all (0: no limit).
     *
     * @throws java.net.SocketTimeoutException when it did not finish in time
     * @throws SSLHandshakeException           when it failed (its message says why, including a peer that answered in
     *                                         plaintext HTTP)
     */
    public TlsInfo handshake(int timeoutMillis) throws IOException {
        long start = nanoClock.getAsLong();
        long startWallMillis = System.currentTimeMillis();
        try {
            engine.beginHandshake();
            ensureNetIn();
            while (true) {
                HandshakeStatus status = engine.getHandshakeStatus();
                switch (status) {
                    case NEED_TASK -> runTasks();
                    case NEED_WRAP -> wrapAndSend(NO_BYTES);
                    case NEED_UNWRAP, NEED_UNWRAP_AGAIN -> {
                        if (!unwrapDuringHandshake()) {
                            int n = readNet(remainingMillis(timeoutMillis, start), true);
                            if (n < 0) {
                                throw new EOFException("the peer closed the connection during the TLS handshake");
                            }
                        }
                    }
                    case FINISHED, NOT_HANDSHAKING -> {
                        firstBytes = HANDSHAKE_DONE;
                        info = describe(engine.getSession(), startWallMillis, nanoClock.getAsLong() - start);
                        return info;
                    }
                }
            }
        } catch (SSLException e) {
            if (looksLikePlaintextHttp()) {
                SSLHandshakeException plaintext = new SSLHandshakeException("the peer answered in plaintext HTTP,"
                        + " not TLS: it is not a TLS port (use http:// for it)");
                plaintext.initCause(e);
                throw plaintext;
            }
            throw e;
        }
    }

    private TlsInfo describe(SSLSession session, long startWallMillis, long handshakeNanos) {
        String alpn = engine.getApplicationProtocol();
        // A resumed session keeps the creation time of the session it resumes (JSSE, TLS 1.2 and 1.3, both sides),
        // which is earlier than this handshake's start; a full handshake creates its session after the start.
        boolean resumed = session.getCreationTime() < startWallMillis;
        return new TlsInfo(session.getProtocol(), session.getCipherSuite(), alpn == null || alpn.isEmpty() ? null : alpn,
                resumed, Duration.ofNanos(handshakeNanos), session);
    }

    private boolean looksLikePlaintextHttp() {
        return firstBytes != null && new String(firstBytes, StandardCharsets.ISO_8859_1).startsWith("HTTP/");
    }

    /** One unwrap while handshaking; false when more bytes must be read first. */
    private boolean unwrapDuringHandshake() throws IOException {
        if (!netIn.hasRemaining()) {
            return false;
        }
        // Application bytes may follow the handshake in the same flight (a server's 0.5-RTT data): keep them.
        ByteBuffer app = pendingForWriting();
        SSLEngineResult result;
        try {
            result = engine.unwrap(netIn, app);
        } finally {
            app.flip();
        }
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

    @Override
    public TlsInfo tls() {
        return info;
    }

    @Override
    public int read(ByteBuffer dst, int timeoutMillis) throws IOException {
        long start = timeoutMillis == 0 ? 0 : nanoClock.getAsLong();
        while (true) {
            int n = takeDecoded(dst);
            if (n != 0) {
                return n;
            }
            if (readNet(remainingMillis(timeoutMillis, start), true) < 0) {
                return -1; // the peer closed without close_notify: the layer above judges whether that truncated it
            }
        }
    }

    @Override
    public int readNow(ByteBuffer dst) throws IOException {
        while (true) {
            int n = takeDecoded(dst);
            if (n != 0) {
                return n;
            }
            int received = readNet(0, false);
            if (received <= 0) {
                return received;
            }
        }
    }

    /**
     * Application bytes from what is already here: pending decrypted bytes first, then complete records.
     *
     * @return bytes given, 0 when a socket read is needed, -1 after the peer's close_notify
     */
    private int takeDecoded(ByteBuffer dst) throws IOException {
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
            finishEngineWork(result.getHandshakeStatus());
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
        ByteBuffer app = pendingForWriting();
        SSLEngineResult result;
        try {
            result = engine.unwrap(netIn, app);
        } finally {
            app.flip();
        }
        finishEngineWork(result.getHandshakeStatus());
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

    /** Runs the engine's tasks and the wraps it asks for (key update, renegotiation, close_notify reply). */
    private void finishEngineWork(HandshakeStatus status) throws IOException {
        while (true) {
            if (status == HandshakeStatus.NEED_TASK) {
                runTasks();
            } else if (status == HandshakeStatus.NEED_WRAP) {
                try {
                    wrapAndSend(NO_BYTES);
                } catch (IOException e) {
                    if (engine.isInboundDone()) {
                        return; // replying to a close_notify on a connection the peer already closed: nothing lost
                    }
                    throw e;
                }
            } else {
                return;
            }
            status = engine.getHandshakeStatus();
        }
    }

    private void runTasks() {
        Runnable task;
        while ((task = engine.getDelegatedTask()) != null) {
            task.run();
        }
    }

    /**
     * Reads more records into {@code netIn}: blocking with a timeout, or one non-blocking read.
     *
     * @return bytes read, 0 (non-blocking, nothing there), or -1 at the end of the stream
     */
    private int readNet(int timeoutMillis, boolean blocking) throws IOException {
        ensureNetIn();
        netIn.compact();
        int n;
        try {
            if (!netIn.hasRemaining()) {
                throw new SSLException("TLS record larger than " + netIn.capacity() + " bytes");
            }
            int start = netIn.position();
            n = blocking ? readSocket(netIn, timeoutMillis) : readSocketNow(netIn);
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

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
        wrapAndSend(ByteBuffer.wrap(bytes, offset, length));
    }

    /** Wraps all of {@code src} (for an empty source: one wrap, a handshake or alert message) and writes the records. */
    private void wrapAndSend(ByteBuffer src) throws IOException {
        wrapLock.lock();
        ByteBuffer net = buffers.acquire();
        try {
            while (true) {
                net.clear();
                SSLEngineResult result = engine.wrap(src, net);
                switch (result.getStatus()) {
                    case OK -> {
                    }
                    case BUFFER_OVERFLOW -> {
                        // The record does not fit the pooled buffer: wrap it again into one of the session's
                        // packet size (a loop condition would skip the retry when src is empty: a handshake
                        // message or close_notify).
                        buffers.release(net);
                        net = ByteBuffer.allocate(engine.getSession().getPacketBufferSize());
                        continue;
                    }
                    case CLOSED -> {
                        if (src.hasRemaining()) {
                            throw new SSLException("TLS connection closed for writing");
                        }
                    }
                    case BUFFER_UNDERFLOW -> throw new SSLException("unexpected TLS wrap result " + result);
                }
                net.flip();
                if (net.hasRemaining()) {
                    writeSocket(net.array(), net.arrayOffset() + net.position(), net.remaining());
                }
                if (result.getHandshakeStatus() == HandshakeStatus.NEED_TASK) {
                    runTasks();
                }
                if (result.getStatus() == SSLEngineResult.Status.CLOSED || !src.hasRemaining()) {
                    return;
                }
            }
        } finally {
            buffers.release(net);
            wrapLock.unlock();
        }
    }

    @Override
    public void shutdownOutput() throws IOException {
        wrapLock.lock();
        try {
            engine.closeOutbound();
            wrapAndSend(NO_BYTES); // close_notify
        } finally {
            wrapLock.unlock();
        }
        channel.shutdownOutput();
    }

    @Override
    public boolean hasBufferedInput() {
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

    @Override
    public void releaseBuffers() {
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
        dropSocketInput();
    }

    /** The engine (for tests and diagnostics). */
    SSLEngine engine() {
        return engine;
    }

    /** Bytes kept from the handshake for its error message (for tests: 0 once it is over). */
    int handshakeBytesKept() {
        return firstBytes == null ? 0 : firstBytes.length;
    }

    /** Whether any buffer is held right now (for tests; exact only while no thread uses the connection). */
    public boolean holdsBuffers() {
        return netIn != null || appPending != null;
    }

    @Override
    public String toString() {
        return "TlsTransport[" + localAddress() + " -> " + remoteAddress() + (info == null ? "" : " " + info) + "]";
    }
}
