package dev.shuttle.client.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

/**
 * A fault-injecting TCP relay between a client and a real server, for end-to-end tests: it accepts, connects to the
 * target and pumps bytes both ways on virtual threads, applying {@link Faults} to what the server sends back. The
 * faults are chosen per accepted connection (by its index from 0), so a test can break the first connection and let
 * the ones after it through. Loopback only; every wait is bounded by the faults given.
 */
public final class FaultRelay implements AutoCloseable {
    /**
     * What happens to the bytes from the server to the client on one connection.
     *
     * @param latency         added before each forwarded read's worth of bytes (ZERO: none)
     * @param bytesPerSecond  pace the forwarding to at most this rate (0: unlimited)
     * @param resetAfterBytes after this many bytes, reset the client's connection (RST; -1: never)
     * @param halfCloseAfter  after this many bytes, close the direction towards the client (FIN; the client's
     *                        bytes still reach the server; -1: never)
     */
    public record Faults(Duration latency, long bytesPerSecond, long resetAfterBytes, long halfCloseAfter) {
        public static final Faults NONE = new Faults(Duration.ZERO, 0, -1, -1);

        public static Faults latency(Duration latency) {
            return new Faults(latency, 0, -1, -1);
        }

        public static Faults bandwidth(long bytesPerSecond) {
            return new Faults(Duration.ZERO, bytesPerSecond, -1, -1);
        }

        public static Faults resetAfter(long bytes) {
            return new Faults(Duration.ZERO, 0, bytes, -1);
        }

        public static Faults halfCloseAfter(long bytes) {
            return new Faults(Duration.ZERO, 0, -1, bytes);
        }
    }

    private final ServerSocket listener;
    private final InetSocketAddress target;
    private final IntFunction<Faults> faults;
    private final AtomicInteger accepted = new AtomicInteger();
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();

    /** @param faults the faults of the connection with the given index (0 for the first accepted) */
    public FaultRelay(InetSocketAddress target, IntFunction<Faults> faults) throws IOException {
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.target = target;
        this.faults = faults;
        Thread.ofVirtual().name("fault-relay-accept").start(this::acceptLoop);
    }

    private void acceptLoop() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                sockets.add(client);
                Faults f = faults.apply(accepted.getAndIncrement());
                Thread.ofVirtual().name("fault-relay").start(() -> relay(client, f));
            } catch (IOException e) {
                return;
            }
        }
    }

    private void relay(Socket client, Faults f) {
        Socket server = new Socket();
        sockets.add(server);
        try {
            client.setTcpNoDelay(true);
            server.setTcpNoDelay(true);
            server.connect(target, 5_000);
            Thread.ofVirtual().name("fault-relay-up").start(() -> pumpUp(client, server));
            pumpDown(server, client, f);
        } catch (IOException e) {
            closeQuietly(client);
            closeQuietly(server);
        }
    }

    /** Client to server, untouched; the client's FIN is passed on as a FIN. */
    private static void pumpUp(Socket client, Socket server) {
        try {
            InputStream in = client.getInputStream();
            OutputStream out = server.getOutputStream();
            byte[] buffer = new byte[16 * 1024];
            int n;
            while ((n = in.read(buffer)) >= 0) {
                out.write(buffer, 0, n);
                out.flush();
            }
            server.shutdownOutput();
        } catch (IOException e) {
            closeQuietly(server); // the client went away, or was reset by the other pump
        }
    }

    /** Server to client, with the faults. */
    private static void pumpDown(Socket server, Socket client, Faults f) {
        long started = System.nanoTime();
        long sent = 0;
        // Small reads when pacing, so the rate holds within each read's worth too.
        int size = f.bytesPerSecond() > 0 ? (int) Math.clamp(f.bytesPerSecond() / 50, 1, 16 * 1024) : 16 * 1024;
        byte[] buffer = new byte[size];
        try {
            InputStream in = server.getInputStream();
            OutputStream out = client.getOutputStream();
            long cut = cutoff(f);
            int n;
            while ((n = in.read(buffer)) >= 0) {
                if (!f.latency().isZero()) {
                    Thread.sleep(f.latency()); // the fault itself: bytes arrive late
                }
                int forward = cut >= 0 ? (int) Math.min(n, cut - sent) : n;
                out.write(buffer, 0, forward);
                out.flush();
                sent += forward;
                if (cut >= 0 && sent >= cut) {
                    if (f.resetAfterBytes() >= 0) {
                        client.setSoLinger(true, 0); // close() then sends RST, not FIN
                        client.close();
                        server.close();
                    } else {
                        client.shutdownOutput(); // FIN towards the client; its requests still go through
                        in.transferTo(OutputStream.nullOutputStream());
                    }
                    return;
                }
                if (f.bytesPerSecond() > 0) {
                    long due = started + sent * 1_000_000_000L / f.bytesPerSecond();
                    long wait = due - System.nanoTime();
                    if (wait > 0) {
                        Thread.sleep(Duration.ofNanos(wait)); // the fault itself: the bandwidth limit
                    }
                }
            }
            client.shutdownOutput();
        } catch (IOException | InterruptedException e) {
            closeQuietly(client);
            closeQuietly(server);
        }
    }

    private static long cutoff(Faults f) {
        return f.resetAfterBytes() >= 0 ? f.resetAfterBytes() : f.halfCloseAfter();
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // already closed
        }
    }

    /** Connections accepted so far. */
    public int accepted() {
        return accepted.get();
    }

    /** The relay's address with the given path. */
    public URI uri(String path) {
        return URI.create("http://127.0.0.1:" + listener.getLocalPort() + path);
    }

    @Override
    public void close() throws IOException {
        listener.close();
        for (Socket socket : sockets) {
            closeQuietly(socket);
        }
    }
}
