package dev.shuttle.client.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP relay that delays every new connection, simulating a dial that costs a round trip or a handshake: it accepts,
 * sleeps, then connects to the target and pumps bytes both ways on virtual threads. The client's {@code connect()}
 * returns at once (the kernel accepts); the delay shows up before the first response byte, as on a real network.
 */
public final class DelayRelay implements AutoCloseable {
    private final ServerSocket listener;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();

    public DelayRelay(InetSocketAddress target, long delayMillis) throws IOException {
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread.ofVirtual().name("relay-accept").start(() -> {
            while (!listener.isClosed()) {
                try {
                    Socket client = listener.accept();
                    sockets.add(client);
                    Thread.ofVirtual().start(() -> relay(client, target, delayMillis));
                } catch (IOException e) {
                    return;
                }
            }
        });
    }

    private void relay(Socket client, InetSocketAddress target, long delayMillis) {
        try {
            Thread.sleep(delayMillis); // the subject under test: the cost of a new connection
            Socket upstream = new Socket();
            sockets.add(upstream);
            upstream.setTcpNoDelay(true);
            client.setTcpNoDelay(true);
            upstream.connect(target);
            Thread.ofVirtual().start(() -> pump(client, upstream));
            pump(upstream, client);
        } catch (IOException | InterruptedException e) {
            closeQuietly(client);
        }
    }

    private static void pump(Socket from, Socket to) {
        try {
            InputStream in = from.getInputStream();
            OutputStream out = to.getOutputStream();
            byte[] buffer = new byte[16 * 1024];
            int n;
            while ((n = in.read(buffer)) >= 0) {
                out.write(buffer, 0, n);
                out.flush();
            }
        } catch (IOException e) {
            // one side went away
        } finally {
            closeQuietly(from);
            closeQuietly(to);
        }
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // already closed
        }
    }

    /** The relay's address with the target's path. */
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
