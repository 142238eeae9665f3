package dev.shuttle.client.connect;

import dev.shuttle.client.ClientTrace;
import dev.shuttle.client.HttpTimeoutException;
import dev.shuttle.client.Origin;
import dev.shuttle.client.internal.ClientSettings;
import dev.shuttle.client.pool.Route;
import dev.shuttle.client.proxy.ProxyServer;
import dev.shuttle.client.proxy.Tunnel;
import dev.shuttle.client.proxy.TunnelAuthenticator;
import dev.shuttle.transport.BufferPool;
import dev.shuttle.transport.PlainTransport;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * The dialer's side of CONNECT tunnels: connects to the proxy, opens the {@link Tunnel} (on a new connection when
 * the proxy closed the one that carried its 407), and reports it to the trace. The channel it returns is the origin's.
 */
final class Tunnels {
    private final RealDialer dialer;
    private final ClientSettings settings;
    private final BufferPool buffers;
    private final TunnelAuthenticator authenticator;

    /** The tunnel's channel, and the origin's bytes read with the proxy's answer (usually none). */
    record Opened(SocketChannel channel, ByteBuffer early) {
    }

    Tunnels(RealDialer dialer, ClientSettings settings, BufferPool buffers, TunnelAuthenticator authenticator) {
        this.dialer = dialer;
        this.settings = settings;
        this.buffers = buffers;
        this.authenticator = authenticator;
    }

    Opened open(Route route, long deadline, ClientTrace trace) throws IOException {
        Origin origin = route.origin();
        ProxyServer proxy = route.proxy();
        String authorization = proxy.authorization();
        int round = 0;
        while (true) {
            SocketChannel channel = dialer.connect(origin, proxy.host(), proxy.port(), deadline, trace);
            trace.tunnelStart(origin, proxy.asProxy());
            try {
                PlainTransport transport = new PlainTransport(channel, buffers, settings.nanoClock());
                Tunnel tunnel = new Tunnel(transport, origin, proxy, settings.userAgent(), settings.http1Limits(),
                        ClientSettings.millis(settings.readTimeout()));
                ByteBuffer early = tunnel.open(authenticator, authorization, round);
                trace.tunnelDone(origin, proxy.asProxy(), null);
                return new Opened(channel, early);
            } catch (Tunnel.NeedsNewConnection again) {
                channel.close();
                trace.tunnelDone(origin, proxy.asProxy(), again);
                authorization = again.authorization();
                round = again.round();
            } catch (IOException | RuntimeException e) {
                channel.close();
                IOException failure = e instanceof SocketTimeoutException timeout
                        && !(timeout instanceof HttpTimeoutException)
                        ? readTimeout(timeout) : e instanceof IOException io ? io : new IOException(e);
                trace.tunnelDone(origin, proxy.asProxy(), failure);
                throw failure;
            }
        }
    }

    private static HttpTimeoutException readTimeout(SocketTimeoutException e) {
        HttpTimeoutException timeout = new HttpTimeoutException(HttpTimeoutException.Kind.READ, e.getMessage());
        timeout.initCause(e);
        return timeout;
    }
}
