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
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

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

    private final ReentrantLock inFlightLock = new ReentrantLock();
    /** Signalled whenever {@link #inFlight} drops to zero. */
    private final Condition quiet = inFlightLock.newCondition();
    /** Accepted connections not yet ended: waiting out the delay, connecting, or relaying. Guarded by inFlightLock. */
    private int inFlight;

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
            changeInFlight(1);
            threads.execute(() -> relay(client));
        }
    }

    /** Relays one accepted connection; it counts as in flight until its pair (or this method, failing) ends it. */
    private void relay(Socket client) {
        liveSockets.add(client);
        Socket upstream = new Socket();
        liveSockets.add(upstream);
        boolean paired = false;
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
            paired = true; // from here the pair ends it
            pair.pump(upstream, client, bytesToClients);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            closeQuietly(client);
            closeQuietly(upstream);
        } catch (IOException e) {
            closeQuietly(client);
            closeQuietly(upstream);
        } catch (RuntimeException e) {
            closeQuietly(client);
            closeQuietly(upstream);
            throw e;
        } finally {
            if (!paired) {
                changeInFlight(-1);
            }
        }
    }

    /**
     * Waits until no accepted connection is in flight: none waiting out its delay, connecting, or still relaying.
     * A client that closed a dial still in the delay has left the relay a connection to open to the target later;
     * an experiment that counts connections at the target waits here first, so that connection is counted where
     * its client made it and not in whatever runs next. Returns false if that did not happen within
     * {@code timeout}.
     */
    public boolean awaitQuiet(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        inFlightLock.lock();
        try {
            while (inFlight > 0) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                quiet.awaitNanos(left);
            }
            return true;
        } finally {
            inFlightLock.unlock();
        }
    }

    /** Connections accepted and not yet ended. */
    public int inFlight() {
        inFlightLock.lock();
        try {
            return inFlight;
        } finally {
            inFlightLock.unlock();
        }
    }

    private void changeInFlight(int delta) {
        inFlightLock.lock();
        try {
            inFlight += delta;
            if (inFlight == 0) {
                quiet.signalAll();
            }
        } finally {
            inFlightLock.unlock();
        }
    }

    /** Both sockets of one relayed connection; closes them once both directions ended or one failed. */
    private final class Pair {
        private final Socket client;
        private final Socket upstream;
        private final AtomicLong directionsDone = new AtomicLong();
        /** Set once, by whichever direction ends the pair: it leaves the in-flight count exactly once. */
        private final AtomicBoolean ended = new AtomicBoolean();

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
                    end();
                }
            }
        }

        /** Closes both sides at once; data still unread in a socket makes the kernel send a reset, as intended. */
        private void abort() {
            closeQuietly(client);
            closeQuietly(upstream);
            end();
        }

        private void end() {
            if (ended.compareAndSet(false, true)) {
                changeInFlight(-1);
            }
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
