package dev.shuttle.client.http1;

import dev.shuttle.client.Origin;
import dev.shuttle.client.Request;
import dev.shuttle.client.exchange.ExchangeCodec;
import dev.shuttle.client.exchange.ExchangeContext;
import dev.shuttle.client.exchange.ProtocolConnection;
import dev.shuttle.client.pool.Lease;
import dev.shuttle.client.proxy.ProxyServer;
import dev.shuttle.transport.BufferPool;
import dev.shuttle.transport.ReadinessWatcher;
import dev.shuttle.transport.Transport;
import dev.shuttle.transport.tls.TlsInfo;
import dev.shuttle.wire.Headers;
import dev.shuttle.wire.HttpVersion;
import dev.shuttle.wire.http1.Http1HeadParser;
import dev.shuttle.wire.http1.Http1HeadWriter;
import dev.shuttle.wire.http1.Http1Limits;
import dev.shuttle.wire.http1.RequestHead;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.SocketChannel;
import java.util.function.LongSupplier;

/**
 * One HTTP/1.1 connection over a {@link Transport} (plaintext or TLS), in blocking mode while in use.
 *
 * <p>Threads: the holder of the connection's lease does all reads and writes; {@link #abort} and {@link #close} may
 * come from any thread (a timeout, a client closing, a body closed while another thread reads) and unblock it. While
 * it is watched (idle for a while in the pool) the client's readiness watcher holds its channel, and
 * {@link #unwatch()} takes it back.
 */
public final class Http1Connection implements ProtocolConnection, ReadinessWatcher.Parkable {
    private final long id;
    private final Origin origin;
    private final Transport transport;
    private final ConnectionSource source;
    private final Http1HeadParser parser;
    /** Read buffers (through {@link #source}) and request write buffers, borrowed while the connection is in use. */
    private final BufferPool buffers;
    private final ReadinessWatcher watcher;
    /** The Host header value, computed once per connection rather than per request. */
    private final String hostHeader;
    /**
     * The proxy this connection goes to for plain http requests (sent in absolute form, with its credentials), or
     * null: direct, or a tunnel (whose requests look direct).
     */
    private final ProxyServer forwardProxy;
    /**
     * Owned by the holder of the lease (handed over under the pool's lock): the fields of a request without headers
     * or body of its own, built by the first such exchange ({@link Http1Exchange}); null until then.
     */
    private Headers plainRequestFields;
    /**
     * Owned like plainRequestFields: the last plain request's head as sent, and its method and target; a caller that
     * sends the same request again and again sends the same bytes, encoded once. Null until the first.
     */
    private byte[] plainHead;
    private String plainHeadMethod;
    private String plainHeadTarget;
    /** Guarded by the pool's lock (watch) and then owned by the unwatching thread: the current stay in the watcher. */
    private ReadinessWatcher.Ticket ticket;
    /** What to run when the watcher hands the connection back; set with the ticket. */
    private volatile Runnable onWake;
    /** Why the connection was aborted, if it was; set once, by any thread. */
    private volatile IOException abortReason;

    public Http1Connection(long id, Origin origin, Transport transport, BufferPool buffers, Http1Limits limits,
                           ReadinessWatcher watcher, LongSupplier clock) {
        this(id, origin, transport, buffers, limits, watcher, clock, null);
    }

    public Http1Connection(long id, Origin origin, Transport transport, BufferPool buffers, Http1Limits limits,
                           ReadinessWatcher watcher, LongSupplier clock, ProxyServer forwardProxy) {
        this.forwardProxy = forwardProxy;
        this.id = id;
        this.origin = origin;
        this.transport = transport;
        this.source = new ConnectionSource(transport, buffers, clock, ResponseTurns.Turn.YIELD);
        this.parser = new Http1HeadParser(limits);
        this.buffers = buffers;
        this.watcher = watcher;
        this.hostHeader = origin.authority();
    }

    @Override
    public long id() {
        return id;
    }

    @Override
    public Origin origin() {
        return origin;
    }

    @Override
    public InetSocketAddress localAddress() {
        return transport.localAddress();
    }

    @Override
    public InetSocketAddress remoteAddress() {
        return transport.remoteAddress();
    }

    @Override
    public HttpVersion protocol() {
        return HttpVersion.HTTP_1_1;
    }

    @Override
    public TlsInfo tls() {
        return transport.tls();
    }

    @Override
    public ExchangeCodec newExchange(Lease lease, Request request, ExchangeContext context) {
        return new Http1Exchange(lease, this, request, context);
    }

    ConnectionSource source() {
        return source;
    }

    Http1HeadParser parser() {
        return parser;
    }

    Transport transport() {
        return transport;
    }

    /** The client's buffer pool, for the exchange's write buffer. */
    BufferPool buffers() {
        return buffers;
    }

    Headers plainRequestFields() {
        return plainRequestFields;
    }

    void plainRequestFields(Headers fields) {
        this.plainRequestFields = fields;
    }

    /**
     * The head of a request without headers or body of its own: the last such head again when its method and
     * target are the same (its fields are those this connection always sends then).
     */
    byte[] plainHead(String method, String target, Headers fields) {
        if (plainHead == null || !method.equals(plainHeadMethod) || !target.equals(plainHeadTarget)) {
            plainHead = Http1HeadWriter.encode(new RequestHead(method, target, HttpVersion.HTTP_1_1, fields));
            plainHeadMethod = method;
            plainHeadTarget = target;
        }
        return plainHead;
    }

    /** The proxy plain http requests go to in absolute form, or null. */
    ProxyServer forwardProxy() {
        return forwardProxy;
    }

    /** {@link Origin#authority()}, the Host header of every request on this connection. */
    String hostHeader() {
        return hostHeader;
    }

    /**
     * Non-blocking check before reuse: one non-blocking read. Nothing (0) is the normal case; the end of the stream
     * means the server closed while we were idle; application bytes nobody asked for (a late response, garbage)
     * would corrupt the next exchange. A TLS record without application bytes (a session ticket) is consumed and
     * counts as nothing.
     */
    @Override
    public boolean isHealthy() {
        if (!isOpen() || source.buffered() > 0) {
            return false;
        }
        try {
            return source.fillNow() == 0;
        } catch (IOException e) {
            return false;
        }
    }

    @Override
    public boolean isOpen() {
        return transport.isOpen() && abortReason == null;
    }

    @Override
    public void onIdle() {
        source.idle();
        if (transport.tls() != null) {
            transport.releaseBuffers(); // its record buffers; plaintext keeps its socket stream until watched
        }
    }

    @Override
    public boolean watch(Runnable onWake) {
        try {
            transport.releaseBuffers(); // a connection idle this long keeps nothing it can make again
            SocketChannel channel = transport.channel();
            channel.configureBlocking(false);
            this.onWake = onWake;
            ticket = watcher.park(this, Long.MAX_VALUE);
            if (ticket == null) {
                channel.configureBlocking(true);
                return false;
            }
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    @Override
    public boolean unwatch() {
        ReadinessWatcher.Ticket current = ticket;
        ticket = null;
        return current == null || watcher.unpark(current);
    }

    // ---- ReadinessWatcher.Parkable, watcher thread ----

    @Override
    public SocketChannel channel() {
        return transport.channel();
    }

    @Override
    public void onWake(ReadinessWatcher.Wake reason) {
        Runnable action = onWake;
        if (action != null) {
            Thread.ofVirtual().name("shuttle-idle-check").start(action);
        }
    }

    // ---- any thread ----

    /** Closes the connection from any thread, recording why, so a thread blocked on it can report the real cause. */
    @Override
    public void abort(IOException reason) {
        if (abortReason == null) {
            abortReason = reason;
        }
        close();
    }

    /** The abort reason, or null when the connection was not aborted. */
    public IOException abortReason() {
        return abortReason;
    }

    @Override
    public void close() {
        transport.close();
    }

    @Override
    public String toString() {
        return "Http1Connection[" + id + " " + localAddress() + " -> " + origin
                + (forwardProxy == null ? "" : " via " + forwardProxy) + (transport.tls() == null ? "" : " TLS") + "]";
    }
}
