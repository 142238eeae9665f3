package dev.shuttle.lab.relay;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A TCP relay on 127.0.0.1 that makes every new connection pay a simulated handshake: after accepting, it waits
 * the dial delay before connecting to the target and forwarding, so whatever a client sends first (its request)
 * is answered at least that much later. Every client pays the same cost, including those without a socket-factory
 * hook. Bytes are pumped both ways on virtual threads; an end of stream is passed on as a half-close and an error
 * (a reset) closes both sides, so the target sees what the client did.
 *
 * <p>Lifecycle: created → {@link #start()} (listening) → {@link #close()} (listener and every relayed pair closed).
 */
public final class DialDelayRelay implements AutoCloseable {
    private static final int PUMP_BUFFER_BYTES = 16 * 1024;

    private final InetSocketAddress target;
    private final Duration delay;
    private final ServerSocket listener;
    private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
    /** Sockets of live relayed pairs, so close() can end them; concurrent set, written by relay threads. */
    private final Set<Socket> liveSockets = ConcurrentHashMap.newKeySet();
    private final AtomicLong accepted = new AtomicLong();
    private final AtomicLong bytesToClients = new AtomicLong();
    private final AtomicLong bytesToTarget = new AtomicLong();
    private volatile boolean closed; // written by close(), read by the accept loop

    public DialDelayRelay(InetSocketAddress target, Duration delay) throws IOException {
        if (delay.isNegative()) {
            throw new IllegalArgumentException("dial delay must not be negative: " + delay);
        }
        this.target = target;
        this.delay = delay;
        this.listener = new ServerSocket(0, 200, InetAddress.getLoopbackAddress());
    }

    /** Starts accepting; returns this for chaining. */
    public DialDelayRelay start() {
        threads.execute(this::acceptLoop);
        return this;
    }

    /** Port clients should connect to. */
    public int port() {
        return listener.getLocalPort();
    }

    public Duration delay() {
        return delay;
    }

    /** Connections accepted from clients so far. */
    public long connectionsAccepted() {
        return accepted.get();
    }

    /** Bytes written towards clients (responses). */
    public long bytesToClients() {
        return bytesToClients.get();
    }

    /** Bytes written towards the target (requests). */
    public long bytesToTarget() {
        return bytesToTarget.get();
    }

    private void acceptLoop() {
        while (!closed) {
            Socket client;
            try {
                client = listener.accept();
            } catch (IOException e) {
                if (!closed) {
                    System.getLogger(DialDelayRelay.class.getName())
                            .log(System.Logger.Level.WARNING, "relay accept failed", e);
                }
                return;
            }
            accepted.incrementAndGet();
            threads.execute(() -> relay(client));
        }
    }

    private void relay(Socket client) {
        liveSockets.add(client);
        Socket upstream = new Socket();
        liveSockets.add(upstream);
        try {
            client.setTcpNoDelay(true);
            if (!delay.isZero()) {
                Thread.sleep(delay);
            }
            upstream.setTcpNoDelay(true);
            upstream.connect(target, 5_000);
            if (closed) {
                return;
            }
            Pair pair = new Pair(client, upstream);
            threads.execute(() -> pair.pump(client, upstream, bytesToTarget));
            pair.pump(upstream, client, bytesToClients);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            closeQuietly(client);
            closeQuietly(upstream);
        } catch (IOException e) {
            closeQuietly(client);
            closeQuietly(upstream);
        }
    }

    /** Both sockets of one relayed connection; closes them once both directions ended or one failed. */
    private final class Pair {
        private final Socket client;
        private final Socket upstream;
        private final AtomicLong directionsDone = new AtomicLong();

        Pair(Socket client, Socket upstream) {
            this.client = client;
            this.upstream = upstream;
        }

        void pump(Socket from, Socket to, AtomicLong counter) {
            byte[] buffer = new byte[PUMP_BUFFER_BYTES];
            boolean clean = false;
            try {
                InputStream in = from.getInputStream();
                OutputStream out = to.getOutputStream();
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    out.write(buffer, 0, n);
                    counter.addAndGet(n);
                }
                to.shutdownOutput();
                clean = true;
            } catch (IOException e) {
                // a reset or a close on either side: the pair cannot carry on, end it below
            } finally {
                if (!clean) {
                    abort();
                } else if (directionsDone.incrementAndGet() == 2) {
                    closeQuietly(client);
                    closeQuietly(upstream);
                }
            }
        }

        /** Closes both sides at once; data still unread in a socket makes the kernel send a reset, as intended. */
        private void abort() {
            closeQuietly(client);
            closeQuietly(upstream);
        }

        private void closeQuietly(Socket socket) {
            DialDelayRelay.this.closeQuietly(socket);
        }
    }

    private void closeQuietly(Socket socket) {
        liveSockets.remove(socket);
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing is best effort: the socket is gone either way
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
        for (Socket socket : liveSockets) {
            closeQuietly(socket);
        }
        threads.shutdownNow();
    }
}
