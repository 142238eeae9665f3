package dev.shuttle.transport;

import dev.shuttle.transport.tls.TlsInfo;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.List;
import java.util.function.LongSupplier;
import java.util.function.Function;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSession;

/**
 * TLS over a socket with JSSE's {@link SSLEngine}, not {@code SSLSocket}: sets the engine up for either side, runs
 * the handshake, and serves {@link Transport}'s reads and writes through a {@code TlsRecordReader} (records in, and
 * the buffers they need) and a {@code TlsRecordWriter} (records out). The engine is plain state, so a parked
 * connection keeps it and, at most, a partial record in an array of its exact size.
 *
 * <p>The engine's work during a read (tasks, and the wraps a key update or renegotiation asks for) is done on the
 * reading thread, through the writer's lock. Threads: one reading thread and one writing thread at a time, as
 * {@link Transport} says; the engine allows a wrap and an unwrap to run concurrently.
 */
public final class TlsTransport extends Transport {
    private final SSLEngine engine;
    private final TlsRecordWriter writer;
    private final TlsRecordReader reader;
    /** Written once by the handshaking thread; read by any. */
    private volatile TlsInfo info;

    private TlsTransport(SocketChannel channel, BufferPool buffers, LongSupplier nanoClock, SSLEngine engine)
            throws IOException {
        super(channel, nanoClock);
        this.engine = engine;
        this.writer = new TlsRecordWriter(this, engine, buffers);
        this.reader = new TlsRecordReader(this, engine, buffers, writer);
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
        reader.prepend(received);
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
            while (true) {
                HandshakeStatus status = engine.getHandshakeStatus();
                switch (status) {
                    case NEED_TASK -> writer.runTasks();
                    case NEED_WRAP -> writer.wrapAndSend(TlsRecordWriter.NO_BYTES);
                    case NEED_UNWRAP, NEED_UNWRAP_AGAIN -> {
                        if (!reader.unwrapDuringHandshake()) {
                            int n = reader.readNet(remainingMillis(timeoutMillis, start), true);
                            if (n < 0) {
                                throw new EOFException("the peer closed the connection during the TLS handshake");
                            }
                        }
                    }
                    case FINISHED, NOT_HANDSHAKING -> {
                        reader.handshakeDone();
                        info = describe(engine.getSession(), startWallMillis, nanoClock.getAsLong() - start);
                        return info;
                    }
                }
            }
        } catch (SSLException e) {
            if (reader.peerSpokePlaintextHttp()) {
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

    @Override
    public TlsInfo tls() {
        return info;
    }

    @Override
    public int read(ByteBuffer dst, int timeoutMillis) throws IOException {
        long start = timeoutMillis == 0 ? 0 : nanoClock.getAsLong();
        while (true) {
            int n = reader.takeDecoded(dst);
            if (n != 0) {
                return n;
            }
            if (reader.readNet(remainingMillis(timeoutMillis, start), true) < 0) {
                return -1; // the peer closed without close_notify: the layer above judges whether that truncated it
            }
        }
    }

    @Override
    public int readNow(ByteBuffer dst) throws IOException {
        while (true) {
            int n = reader.takeDecoded(dst);
            if (n != 0) {
                return n;
            }
            int received = reader.readNet(0, false);
            if (received <= 0) {
                return received;
            }
        }
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
        writer.wrapAndSend(ByteBuffer.wrap(bytes, offset, length));
    }

    @Override
    public void shutdownOutput() throws IOException {
        writer.closeOutbound(); // close_notify
        channel.shutdownOutput();
    }

    @Override
    public boolean hasBufferedInput() {
        return reader.hasBufferedInput();
    }

    @Override
    public void releaseBuffers() {
        reader.releaseBuffers();
        dropStreams();
    }

    /** The engine (for tests and diagnostics). */
    SSLEngine engine() {
        return engine;
    }

    /** Bytes kept from the handshake for its error message (for tests: 0 once it is over). */
    int handshakeBytesKept() {
        return reader.handshakeBytesKept();
    }

    /** Whether any buffer is held right now (for tests; exact only while no thread uses the connection). */
    public boolean holdsBuffers() {
        return reader.holdsBuffers();
    }

    @Override
    public String toString() {
        return "TlsTransport[" + localAddress() + " -> " + remoteAddress() + (info == null ? "" : " " + info) + "]";
    }
}
