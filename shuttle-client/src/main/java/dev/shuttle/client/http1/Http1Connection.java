package dev.shuttle.client.http1;

import dev.shuttle.client.Origin;
import dev.shuttle.client.internal.BufferPool;
import dev.shuttle.client.pool.PooledConnection;
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
                return channel.read(ByteBuffer.allocate(1)) == 0;
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
