package dev.shuttle.client.http1;

import dev.shuttle.client.ClientTrace;
import dev.shuttle.client.HttpTimeoutException;
import dev.shuttle.client.Origin;
import dev.shuttle.client.internal.BufferPool;
import dev.shuttle.client.internal.ClientSettings;
import dev.shuttle.client.internal.Deadline;
import dev.shuttle.client.pool.Dialer;
import dev.shuttle.client.pool.PooledConnection;
import dev.shuttle.wire.http1.Http1Limits;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.net.StandardSocketOptions;
import java.net.UnknownHostException;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Opens TCP connections: resolves the host, then tries its addresses in order until one connects, each attempt
 * bounded by the connect timeout and the caller's deadline. Stateless apart from the id counter; thread-safe.
 */
public final class Http1Dialer implements Dialer {
    private final Duration connectTimeout;
    private final BufferPool buffers;
    private final Http1Limits limits;
    private final LongSupplier clock;
    private final AtomicLong ids = new AtomicLong();

    public Http1Dialer(Duration connectTimeout, BufferPool buffers, Http1Limits limits, LongSupplier clock) {
        this.connectTimeout = connectTimeout;
        this.buffers = buffers;
        this.limits = limits;
        this.clock = clock;
    }

    @Override
    public PooledConnection dial(Origin origin, long deadline, ClientTrace trace) throws IOException {
        List<InetAddress> addresses = resolve(origin.host(), trace);
        IOException last = null;
        for (InetAddress address : addresses) {
            InetSocketAddress target = new InetSocketAddress(address, origin.port());
            trace.connectStart(origin, target);
            SocketChannel channel = SocketChannel.open();
            try {
                channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
                channel.socket().connect(target, connectMillis(deadline));
                Http1Connection connection = new Http1Connection(ids.incrementAndGet(), origin, channel, buffers,
                        limits, clock);
                trace.connectDone(origin, target, null);
                return connection;
            } catch (IOException e) {
                channel.close();
                IOException failure = e instanceof SocketTimeoutException
                        ? new HttpTimeoutException(HttpTimeoutException.Kind.CONNECT,
                        "connect to " + target + " timed out")
                        : e;
                trace.connectDone(origin, target, failure);
                last = failure;
                if (clock.getAsLong() >= deadline) {
                    break;
                }
            }
        }
        throw last;
    }

    private static List<InetAddress> resolve(String host, ClientTrace trace) throws UnknownHostException {
        trace.dnsStart(host);
        try {
            List<InetAddress> addresses = Arrays.asList(InetAddress.getAllByName(host));
            trace.dnsDone(host, addresses, null);
            return addresses;
        } catch (UnknownHostException e) {
            trace.dnsDone(host, List.of(), e);
            throw e;
        }
    }

    /** The connect timeout, shortened to the call's deadline; at least 1 ms (0 would mean infinite). */
    private int connectMillis(long deadline) throws HttpTimeoutException {
        int millis = ClientSettings.millis(connectTimeout);
        if (deadline != Deadline.NONE) {
            long left = deadline - clock.getAsLong();
            if (left <= 0) {
                throw new HttpTimeoutException(HttpTimeoutException.Kind.CALL, "call timed out before connecting");
            }
            long leftMillis = Math.max(1, left / 1_000_000);
            if (millis == 0 || leftMillis < millis) {
                millis = (int) Math.min(Integer.MAX_VALUE, leftMillis);
            }
        }
        return millis;
    }
}
