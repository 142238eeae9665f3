package dev.shuttle.client.http1;

import dev.shuttle.client.Origin;
import dev.shuttle.client.internal.BufferPool;
import dev.shuttle.client.pool.PooledConnection;
import dev.shuttle.wire.Headers;
import dev.shuttle.wire.http1.Http1HeadParser;
import dev.shuttle.wire.http1.Http1Limits;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.function.LongSupplier;

/**
 * One HTTP/1.1 connection: a {@link SocketChannel} in blocking mode, read through its socket adaptor (which honours
 * {@code SO_TIMEOUT}), and switched to non-blocking mode only for the health check of an idle connection.
 *
 * <p>Threads: the holder of the connection's lease does all reads and writes; {@link #abort} and {@link #close} may
 * come from any thread (a timeout, a client closing, a body closed while another thread reads) and unblock it.
 */
public final class Http1Connection implements PooledConnection {
    private static final System.Logger LOG = System.getLogger(Http1Connection.class.getName());

    private final long id;
    private final Origin origin;
    private final SocketChannel channel;
    private final Socket socket;
    private final OutputStream out;
    private final SocketSource source;
    private final Http1HeadParser parser;
    /** Read buffers (through {@link #source}) and request write buffers, borrowed while the connection is in use. */
    private final BufferPool buffers;
    /** The Host header value, computed once per connection rather than per request. */
    private final String hostHeader;
    /**
     * Owned by the holder of the lease (handed over under the pool's lock): the fields of a request without headers
     * or body of its own, built by the first such exchange ({@link Http1Exchange}); null until then.
     */
    private Headers plainRequestFields;
    /** One byte of room for the health check's probe read; owned by the holder of the lease. */
    private final ByteBuffer probe = ByteBuffer.allocate(1);
    private final InetSocketAddress localAddress;
    private final InetSocketAddress remoteAddress;
    /** Why the connection was aborted, if it was; set once, by any thread. */
    private volatile IOException abortReason;

    Http1Connection(long id, Origin origin, SocketChannel channel, BufferPool buffers, Http1Limits limits,
                    LongSupplier clock) throws IOException {
        this.id = id;
        this.origin = origin;
        this.channel = channel;
        this.socket = channel.socket();
        InputStream in = socket.getInputStream();
        this.out = socket.getOutputStream();
        this.source = new SocketSource(socket, in, buffers, clock);
        this.parser = new Http1HeadParser(limits);
        this.buffers = buffers;
        this.hostHeader = origin.authority();
        this.localAddress = (InetSocketAddress) channel.getLocalAddress();
        this.remoteAddress = (InetSocketAddress) channel.getRemoteAddress();
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
        return localAddress;
    }

    @Override
    public InetSocketAddress remoteAddress() {
        return remoteAddress;
    }

    SocketSource source() {
        return source;
    }

    Http1HeadParser parser() {
        return parser;
    }

    /** The raw socket output; the exchange buffers it per request. */
    OutputStream output() {
        return out;
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

    /** {@link Origin#authority()}, the Host header of every request on this connection. */
    String hostHeader() {
        return hostHeader;
    }

    @Override
    public boolean isHealthy() {
        if (!channel.isOpen() || source.buffered() > 0) {
            return false;
        }
        try {
            channel.configureBlocking(false);
            try {
                // 0: nothing arrived, the normal case. -1: the server closed while we were idle. More: stray bytes
                // (a late response to nothing, garbage) that would corrupt the next exchange.
                probe.clear();
                return channel.read(probe) == 0;
            } finally {
                channel.configureBlocking(true);
            }
        } catch (IOException e) {
            return false;
        }
    }

    @Override
    public boolean isOpen() {
        return channel.isOpen() && abortReason == null;
    }

    @Override
    public void onIdle() {
        source.idle();
    }

    /** Closes the connection from any thread, recording why, so a thread blocked on it can report the real cause. */
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
        try {
            channel.close();
        } catch (IOException e) {
            LOG.log(System.Logger.Level.DEBUG, "closing connection " + id + " failed", e);
        }
    }

    @Override
    public String toString() {
        return "Http1Connection[" + id + " " + localAddress + " -> " + origin + "]";
    }
}
