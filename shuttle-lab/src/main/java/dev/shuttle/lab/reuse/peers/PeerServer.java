package dev.shuttle.lab.reuse.peers;

/**
 * A peer HTTP/2 server for {@code lab reuse --server}, started in the lab's process on 127.0.0.1 (nginx as a child
 * process), serving {@link PeerBodies}: h2c with prior knowledge, or h2 through ALPN over TLS with the run's
 * generated certificate. Each keeps its own defaults; the lab measures what their users get. Started through
 * {@link dev.shuttle.lab.reuse.ReuseServer#startPeer}.
 */
public interface PeerServer extends AutoCloseable {
    int port();

    /** Stops the server and releases its threads; never throws. */
    @Override
    void close();
}
