package dev.shuttle.mockserver;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The HTTP/2 frames the server's connections carry, seen in their plaintext (inside TLS through
 * {@link TappedSslContext}, over plaintext through {@link FrameTapRelay}): the GOAWAYs the server sent, and whether
 * each came before the client had closed. Shuttle's server reports no GOAWAY through its API, so the mock server
 * looks at the bytes. Thread-safe; totals are exact for the tap's whole life, GOAWAY details are kept for the last
 * {@link MockServer#KEPT_CONNECTIONS}.
 */
final class FrameTap {
    private final ReentrantLock lock = new ReentrantLock();
    private final ArrayDeque<GoAway> goAways = new ArrayDeque<>(); // guarded by lock
    private long goAwaysSent; // guarded by lock
    private long goAwaysBeforeClientClosed; // guarded by lock

    /** A tap for one new connection. */
    Connection connection() {
        return new Connection();
    }

    /** GOAWAY frames the server sent since start. */
    long goAwaysSent() {
        lock.lock();
        try {
            return goAwaysSent;
        } finally {
            lock.unlock();
        }
    }

    /** Of {@link #goAwaysSent()}, those sent before the client had closed or sent its own GOAWAY. */
    long goAwaysBeforeClientClosed() {
        lock.lock();
        try {
            return goAwaysBeforeClientClosed;
        } finally {
            lock.unlock();
        }
    }

    /** The GOAWAYs the server sent, oldest first. */
    List<GoAway> goAways() {
        lock.lock();
        try {
            return List.copyOf(new ArrayList<>(goAways));
        } finally {
            lock.unlock();
        }
    }

    private void record(GoAway goAway) {
        lock.lock();
        try {
            goAwaysSent++;
            if (goAway.beforeClientClosed()) {
                goAwaysBeforeClientClosed++;
            }
            goAways.add(goAway);
            if (goAways.size() > MockServer.KEPT_CONNECTIONS) {
                goAways.removeFirst();
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * One connection: a scanner per direction, each behind a lock of its own (the bytes of one direction may come
     * from different threads in turn, such as the handlers that write on an HTTP/2 connection).
     */
    final class Connection {
        private final ReentrantLock serverLock = new ReentrantLock();
        private final ReentrantLock clientLock = new ReentrantLock();
        /** Set once the client sent a GOAWAY or closed its side; read by whichever thread sees the server's GOAWAY. */
        private volatile boolean clientClosed;
        private final Http2FrameScanner fromServer = new Http2FrameScanner(Http2FrameScanner.Side.SERVER,
                (lastStreamId, errorCode, debugData) ->
                        record(new GoAway(lastStreamId, errorCode, debugData, !clientClosed)));
        private final Http2FrameScanner fromClient = new Http2FrameScanner(Http2FrameScanner.Side.CLIENT,
                (lastStreamId, errorCode, debugData) ->
                        clientClosed = true);

        private Connection() {
        }

        /** Plaintext the server sent: {@code bytes}' remaining bytes, their position left alone. */
        void serverSent(ByteBuffer bytes) {
            serverLock.lock();
            try {
                fromServer.feed(bytes);
            } finally {
                serverLock.unlock();
            }
        }

        /** Plaintext the client sent: {@code bytes}' remaining bytes, their position left alone. */
        void clientSent(ByteBuffer bytes) {
            clientLock.lock();
            try {
                fromClient.feed(bytes);
            } finally {
                clientLock.unlock();
            }
        }

        /** The client closed its side (end of stream, a TLS close_notify, or a reset). */
        void clientClosed() {
            clientClosed = true;
        }
    }
}
