package dev.shuttle.server.core;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.StandardSocketOptions;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;

/**
 * The accept loop, on one platform thread: takes each new connection, sets it up and hands it to the readiness
 * watcher to wait for its first bytes. It does no I/O on the connections themselves, so a slow client never delays
 * the next accept. Ends when the server channel is closed.
 */
final class Acceptor implements Runnable {
    private static final System.Logger LOG = System.getLogger(Acceptor.class.getName());

    /** Back-off after an accept error such as EMFILE, doubling up to a second (Go's net/http does the same). */
    private static final long MIN_BACKOFF_MILLIS = 5;
    private static final long MAX_BACKOFF_MILLIS = 1000;

    private final ServerSocketChannel serverChannel;
    private final ServerContext context;
    /** Acceptor thread only. */
    private long nextId = 1;

    Acceptor(ServerSocketChannel serverChannel, ServerContext context) {
        this.serverChannel = serverChannel;
        this.context = context;
    }

    @Override
    public void run() {
        long backoff = 0;
        while (true) {
            try {
                context.registry.acquireConnectionPermit();
            } catch (InterruptedException e) {
                return; // shutdown
            }
            SocketChannel channel;
            try {
                channel = serverChannel.accept();
            } catch (ClosedChannelException e) {
                context.registry.releaseConnectionPermit();
                return;
            } catch (IOException e) {
                context.registry.releaseConnectionPermit();
                if (!serverChannel.isOpen()) {
                    return;
                }
                backoff = backoff == 0 ? MIN_BACKOFF_MILLIS : Math.min(backoff * 2, MAX_BACKOFF_MILLIS);
                LOG.log(Level.WARNING, "accept failed; retrying in " + backoff + " ms", e);
                if (!sleep(backoff)) {
                    return;
                }
                continue;
            }
            backoff = 0;
            setUp(channel);
        }
    }

    private void setUp(SocketChannel channel) {
        ServerConnection connection;
        try {
            // Responses are written whole or in large pieces, so Nagle's delay buys nothing and costs latency.
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            connection = new ServerConnection(context, nextId++, channel);
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.DEBUG, "dropping a connection that failed setup: " + e);
            context.registry.releaseConnectionPermit();
            try {
                channel.close();
            } catch (IOException ignored) {
                // already failing
            }
            return;
        }
        connection.open();
    }

    private static boolean sleep(long millis) {
        try {
            TimeUnit.MILLISECONDS.sleep(millis);
            return true;
        } catch (InterruptedException e) {
            return false;
        }
    }
}
