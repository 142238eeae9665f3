package dev.shuttle.client.connect;

import dev.shuttle.client.ClientTrace;
import dev.shuttle.client.HttpTimeoutException;
import dev.shuttle.client.Origin;
import dev.shuttle.client.http1.Http1Connection;
import dev.shuttle.client.http2.Http2Connection;
import dev.shuttle.client.http2.Http2ConnectionConfig;
import dev.shuttle.client.internal.ClientSettings;
import dev.shuttle.client.dns.AddressLiterals;
import dev.shuttle.client.dns.AddressRace;
import dev.shuttle.client.internal.Deadline;
import dev.shuttle.client.internal.TaskScheduler;
import dev.shuttle.client.pool.Dialer;
import dev.shuttle.client.pool.PooledConnection;
import dev.shuttle.client.pool.Route;
import dev.shuttle.client.proxy.ProxyServer;
import dev.shuttle.client.proxy.TunnelAuthenticator;
import dev.shuttle.transport.BufferPool;
import dev.shuttle.transport.PlainTransport;
import dev.shuttle.transport.ReadinessWatcher;
import dev.shuttle.transport.TlsTransport;
import dev.shuttle.transport.Transport;
import dev.shuttle.transport.tls.TlsInfo;
import dev.shuttle.wire.http1.Http1Limits;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.net.StandardSocketOptions;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Opens new connections along a route: resolves the host (the origin's, or the proxy's) with the client's
 * {@code Dns}, tries its addresses in order until one connects, the other family 300 ms behind ({@link AddressRace};
 * each attempt bounded by the connect timeout and the caller's deadline), opens a CONNECT
 * tunnel through a proxy for {@code https} ({@link Tunnels}), runs the TLS handshake for {@code https} (SNI, hostname
 * verification, ALPN, session resumption through the context's cache), and wraps the result in the connection of the
 * negotiated protocol: HTTP/2 when ALPN picked {@code h2} (or, for {@code http} reached directly, with prior
 * knowledge), else HTTP/1.1. Stateless apart from the id counter; thread-safe.
 */
public final class RealDialer implements Dialer {
    /** ALPN offers, in order of preference: HTTP/2 first when enabled, so a server that speaks it picks it. */
    private static final List<String> ALPN_H2 = List.of("h2", "http/1.1");
    private static final List<String> ALPN_HTTP1 = List.of("http/1.1");

    private final ClientSettings settings;
    private final BufferPool buffers;
    private final Http1Limits limits;
    private final ReadinessWatcher watcher;
    private final LongSupplier clock;
    private final AtomicLong ids = new AtomicLong();
    private final Http2ConnectionConfig http2;
    private final Tunnels tunnels;
    private final AddressRace race;

    public RealDialer(ClientSettings settings, BufferPool buffers, ReadinessWatcher watcher,
                      TunnelAuthenticator tunnelAuthenticator, TaskScheduler scheduler) {
        this.settings = settings;
        this.buffers = buffers;
        this.limits = settings.http1Limits();
        this.watcher = watcher;
        this.clock = settings.nanoClock();
        this.http2 = Http2ConnectionConfig.of(settings.limits(), settings.http2PingInterval() == null ? 0
                : settings.http2PingInterval().toMillis());
        this.tunnels = new Tunnels(this, settings, buffers, tunnelAuthenticator);
        this.race = new AddressRace(RealDialer::tcp, scheduler, RealDialer::explain);
    }

    /** Prior knowledge: every http origin reached directly speaks HTTP/2, so even a first burst shares one dial. */
    @Override
    public boolean multiplexedByConfiguration(Origin origin) {
        return settings.http2PriorKnowledge() && !origin.isSecure();
    }

    @Override
    public PooledConnection dial(Origin origin, long deadline, ClientTrace trace) throws IOException {
        return dial(Route.direct(origin), deadline, trace);
    }

    /**
     * Direct: TCP (and TLS) to the origin. Through a proxy: TCP to the proxy; for https a CONNECT tunnel and TLS with
     * the origin inside it (HTTP/2 by ALPN as directly); for http nothing more, the requests going in absolute form.
     */
    @Override
    public PooledConnection dial(Route route, long deadline, ClientTrace trace) throws IOException {
        Origin origin = route.origin();
        ProxyServer proxy = route.proxy();
        SocketChannel channel;
        ByteBuffer early = null;
        if (proxy == null) {
            channel = connect(origin, origin.host(), origin.port(), deadline, trace);
        } else if (!origin.isSecure()) {
            channel = connect(origin, proxy.host(), proxy.port(), deadline, trace);
        } else {
            Tunnels.Opened tunnel = tunnels.open(route, deadline, trace);
            channel = tunnel.channel();
            early = tunnel.early();
        }
        Transport transport;
        try {
            transport = origin.isSecure() ? handshake(channel, origin, early, deadline, trace)
                    : new PlainTransport(channel, buffers, clock);
            boolean h2 = origin.isSecure()
                    ? transport.tls() != null && "h2".equals(transport.tls().applicationProtocol())
                    : settings.http2PriorKnowledge() && proxy == null;
            if (h2) {
                Http2Connection connection = new Http2Connection(ids.incrementAndGet(), origin, transport, buffers,
                        watcher, clock, http2);
                connection.start();
                return connection;
            }
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
        return new Http1Connection(ids.incrementAndGet(), origin, transport, buffers, limits, watcher, clock,
                proxy != null && !origin.isSecure() ? proxy : null);
    }

    /** A TCP connection to {@code host}:{@code port}, on behalf of {@code origin} (the trace's). */
    SocketChannel connect(Origin origin, String host, int port, long deadline, ClientTrace trace) throws IOException {
        List<InetAddress> addresses = resolve(host, trace);
        return race.connect(origin, addresses, port, () -> connectMillis(deadline), trace);
    }

    /** One TCP connect, as {@link AddressRace} makes them: Nagle off, since requests are written whole. */
    private static SocketChannel tcp(InetSocketAddress address, int timeoutMillis) throws IOException {
        SocketChannel channel = SocketChannel.open();
        try {
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            channel.socket().connect(address, timeoutMillis);
            return channel;
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    private static IOException explain(InetSocketAddress address, IOException e) {
        return e instanceof SocketTimeoutException
                ? new HttpTimeoutException(HttpTimeoutException.Kind.CONNECT, "connect to " + address + " timed out")
                : ConnectFailures.naming(address, e);
    }

    /** @param early bytes already read from the channel that are the server's (past a tunnel's answer), or null */
    private TlsTransport handshake(SocketChannel channel, Origin origin, ByteBuffer early, long deadline,
                                   ClientTrace trace) throws IOException {
        TlsTransport tls = TlsTransport.client(channel, buffers, clock, settings.tlsContext(), origin.host(),
                origin.port(), settings.http2() ? ALPN_H2 : ALPN_HTTP1, settings.hostnameVerification());
        if (early != null) {
            tls.prepend(early);
        }
        trace.tlsHandshakeStart(origin);
        int timeoutMillis = handshakeMillis(deadline);
        try {
            TlsInfo info = tls.handshake(timeoutMillis);
            trace.tlsHandshakeDone(origin, info, null);
            return tls;
        } catch (SocketTimeoutException e) {
            boolean callDeadline = deadline != Deadline.NONE && clock.getAsLong() >= deadline;
            HttpTimeoutException timeout = new HttpTimeoutException(
                    callDeadline ? HttpTimeoutException.Kind.CALL : HttpTimeoutException.Kind.TLS_HANDSHAKE,
                    "TLS handshake with " + origin + " did not finish within " + timeoutMillis + " ms");
            timeout.initCause(e);
            trace.tlsHandshakeDone(origin, null, timeout);
            throw timeout;
        } catch (IOException e) {
            IOException explained = TlsErrors.explain(origin, e);
            trace.tlsHandshakeDone(origin, null, explained);
            throw explained;
        }
    }

    /** The host's addresses: a literal as it is, a name from the client's {@link Dns}. */
    private List<InetAddress> resolve(String host, ClientTrace trace) throws UnknownHostException {
        trace.dnsStart(host);
        try {
            List<InetAddress> addresses = AddressLiterals.isLiteral(host)
                    ? List.of(InetAddress.getByName(host)) : settings.dns().lookup(host);
            if (addresses == null || addresses.isEmpty()) {
                throw new UnknownHostException(host + ": the resolver returned no address");
            }
            trace.dnsDone(host, addresses, null);
            return addresses;
        } catch (UnknownHostException e) {
            trace.dnsDone(host, List.of(), e);
            throw e;
        }
    }

    /** The connect timeout, shortened to the call's deadline; at least 1 ms (0 would mean infinite). */
    private int connectMillis(long deadline) throws HttpTimeoutException {
        return bounded(ClientSettings.millis(settings.connectTimeout()), deadline, "connecting");
    }

    private int handshakeMillis(long deadline) throws HttpTimeoutException {
        return bounded(ClientSettings.millis(settings.tlsHandshakeTimeout()), deadline, "the TLS handshake");
    }

    private int bounded(int millis, long deadline, String what) throws HttpTimeoutException {
        if (deadline != Deadline.NONE) {
            long left = deadline - clock.getAsLong();
            if (left <= 0) {
                throw new HttpTimeoutException(HttpTimeoutException.Kind.CALL, "call timed out before " + what);
            }
            long leftMillis = Math.max(1, left / 1_000_000);
            if (millis == 0 || leftMillis < millis) {
                millis = (int) Math.min(Integer.MAX_VALUE, leftMillis);
            }
        }
        return millis;
    }
}
