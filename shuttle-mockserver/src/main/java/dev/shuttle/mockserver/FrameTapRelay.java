package dev.shuttle.mockserver;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP relay on 127.0.0.1 in front of a plaintext server, showing the frame tap every byte each way. Over
 * plaintext there is no engine to look through, so the mock server's port is this relay's when frames are counted.
 * An end of stream is passed on as a half-close; a reset or error on either side resets both (a linger of 0), so
 * each end sees what the other did. Bytes are pumped on virtual threads with Nagle off.
 *
 * <p>Lifecycle: created (listening) → {@link #start()} (accepting) → {@link #close()} (listener and every pair
 * closed).
 */
final class FrameTapRelay implements AutoCloseable {
    private static final int PUMP_BUFFER_BYTES = 64 * 1024;
    private static final int CONNECT_TIMEOUT_MILLIS = 5_000;

    private final InetSocketAddress target;
    private final FrameTap tap;
    private final ServerSocket listener;
    private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
    /** Sockets of live pairs, so close() can end them; written by relay threads. */
    private final Set<Socket> live = ConcurrentHashMap.newKeySet();
    private volatile boolean closed; // written by close(), read by the accept loop

    FrameTapRelay(InetSocketAddress target, FrameTap tap, int port) throws IOException {
        this.target = target;
        this.tap = tap;
        this.listener = new ServerSocket(port, 200, InetAddress.getLoopbackAddress());
    }

    FrameTapRelay start() {
        threads.execute(this::acceptLoop);
        return this;
    }

    int port() {
        return listener.getLocalPort();
    }

    InetSocketAddress address() {
        return new InetSocketAddress(listener.getInetAddress(), listener.getLocalPort());
    }

    private void acceptLoop() {
        while (!closed) {
            try {
                Socket client = listener.accept();
                threads.execute(() -> relay(client));
            } catch (IOException e) {
                if (!closed) {
                    System.getLogger(FrameTapRelay.class.getName())
                            .log(System.Logger.Level.WARNING, "frame tap relay: accept failed", e);
                }
                return;
            }
        }
    }

    private void relay(Socket client) {
        Socket server = new Socket();
        live.add(client);
        live.add(server);
        try {
            client.setTcpNoDelay(true);
            server.setTcpNoDelay(true);
            server.connect(target, CONNECT_TIMEOUT_MILLIS);
        } catch (IOException e) {
            reset(client);
            reset(server);
            return;
        }
        FrameTap.Connection connection = tap.connection();
        Pair pair = new Pair(client, server);
        threads.execute(() -> pair.pump(client, server, true, connection));
        pair.pump(server, client, false, connection);
    }

    /** The two sockets of one relayed connection: closed once both directions ended, reset when one failed. */
    private final class Pair {
        private final Socket client;
        private final Socket server;
        private final AtomicInteger directionsDone = new AtomicInteger();

        Pair(Socket client, Socket server) {
            this.client = client;
            this.server = server;
        }

        void pump(Socket from, Socket to, boolean fromClient, FrameTap.Connection connection) {
            byte[] buffer = new byte[PUMP_BUFFER_BYTES];
            boolean clean = false;
            try {
                InputStream in = from.getInputStream();
                OutputStream out = to.getOutputStream();
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    // the tap sees the bytes before the other side does, so its counts are final when a reply comes
                    if (fromClient) {
                        connection.clientSent(ByteBuffer.wrap(buffer, 0, n));
                    } else {
                        connection.serverSent(ByteBuffer.wrap(buffer, 0, n));
                    }
                    out.write(buffer, 0, n);
                }
                to.shutdownOutput();
                clean = true;
            } catch (IOException e) {
                // a reset or a close on either side: the pair cannot carry on
            } finally {
                if (fromClient) {
                    connection.clientClosed();
                }
                if (!clean) {
                    reset(client);
                    reset(server);
                } else if (directionsDone.incrementAndGet() == 2) {
                    close(client);
                    close(server);
                }
            }
        }
    }

    private void reset(Socket socket) {
        try {
            socket.setSoLinger(true, 0);
        } catch (IOException ignored) {
            // already closed: nothing to reset
        }
        close(socket);
    }

    private void close(Socket socket) {
        live.remove(socket);
        try {
            socket.close();
        } catch (IOException ignored) {
            // best effort: the socket is gone either way
        }
    }

    @Override
    public void close() {
        closed = true;
        try {
            listener.close();
        } catch (IOException ignored) {
            // nothing left to do with a listener that failed to close
        }
        for (Socket socket : live) {
            close(socket);
        }
        threads.shutdownNow();
    }
}
