package dev.shuttle.wire.testing;

import dev.shuttle.wire.http2.SettingsFrame;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The server role of {@link H2Peer}: an h2c listener on 127.0.0.1 whose connections a test takes one by one with
 * {@link #accept}, each after the preface and the SETTINGS exchange. Sockets are accepted in the background, so a
 * client's dial never waits for the test. {@link #close} closes the listener and every connection it accepted.
 */
public final class H2PeerListener implements AutoCloseable {
    private static final int ACCEPT_TIMEOUT_SECONDS = 5;

    private final ServerSocket server;
    /** Accepted and not yet taken by {@link #accept}. Filled by the acceptor thread. */
    private final BlockingQueue<Socket> accepted = new LinkedBlockingQueue<>();
    /** Every connection handed to the test, closed with the listener. */
    private final List<H2Peer> handedOut = new CopyOnWriteArrayList<>();
    private final Thread acceptor;

    public H2PeerListener() throws IOException {
        this(0);
    }

    /**
     * @param receiveBufferBytes the accepted sockets' receive buffer (0: the system's): a small one makes a peer that
     *                           stops reading block the client's writes after a few KiB
     */
    public H2PeerListener(int receiveBufferBytes) throws IOException {
        server = new ServerSocket();
        if (receiveBufferBytes > 0) {
            server.setReceiveBufferSize(receiveBufferBytes);
        }
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        acceptor = Thread.ofPlatform().daemon().name("h2-peer-accept").start(this::acceptLoop);
    }

    private void acceptLoop() {
        try {
            while (true) {
                accepted.add(server.accept());
            }
        } catch (IOException e) {
            // closed
        }
    }

    public int port() {
        return server.getLocalPort();
    }

    public String url(String path) {
        return "http://127.0.0.1:" + port() + path;
    }

    /** The next connection, after the preface and the SETTINGS exchange ({@code settings} are this peer's). */
    public H2Peer accept(SettingsFrame.Setting... settings) throws IOException, InterruptedException {
        Socket socket = accepted.poll(ACCEPT_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        if (socket == null) {
            throw new AssertionError("no connection within " + ACCEPT_TIMEOUT_SECONDS + " s");
        }
        H2Peer peer = H2Peer.accepted(socket, List.of(settings));
        handedOut.add(peer);
        return peer;
    }

    /** Connections accepted but not taken with {@link #accept} yet. */
    public int pendingConnections() {
        return accepted.size();
    }

    @Override
    public void close() throws IOException {
        server.close();
        acceptor.interrupt();
        try {
            acceptor.join(TimeUnit.SECONDS.toMillis(ACCEPT_TIMEOUT_SECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (Socket socket; (socket = accepted.poll()) != null; ) {
            socket.close();
        }
        for (H2Peer peer : handedOut) {
            peer.close();
        }
    }
}
