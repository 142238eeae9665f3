package dev.shuttle.transport;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.locks.ReentrantLock;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLException;

/**
 * Wraps bytes into TLS records and writes them to the socket, one wrap at a time under {@link #wrapLock}: the
 * application's writes, and the messages the engine asks for (handshake, key update, close_notify) from whichever
 * thread meets the request. Each wrap borrows a record buffer from the pool for its duration only.
 */
final class TlsRecordWriter {
    /**
     * The source of a wrap that sends no application bytes (handshake messages, close_notify): one for every
     * connection, read-only and empty, so no wrap can change it.
     */
    static final ByteBuffer NO_BYTES = ByteBuffer.allocate(0).asReadOnlyBuffer();

    private final Transport transport;
    private final SSLEngine engine;
    private final BufferPool buffers;
    /** Serialises wraps: application writes, handshake messages, key updates, close_notify. */
    private final ReentrantLock wrapLock = new ReentrantLock();

    TlsRecordWriter(Transport transport, SSLEngine engine, BufferPool buffers) {
        this.transport = transport;
        this.engine = engine;
        this.buffers = buffers;
    }

    /** Wraps all of {@code src} (for an empty source: one wrap, a handshake or alert message) and writes the records. */
    void wrapAndSend(ByteBuffer src) throws IOException {
        wrapLock.lock();
        ByteBuffer net = buffers.acquire();
        try {
            while (true) {
                net.clear();
                SSLEngineResult result = engine.wrap(src, net);
                switch (result.getStatus()) {
                    case OK -> {
                    }
                    case BUFFER_OVERFLOW -> {
                        // The record does not fit the pooled buffer: wrap it again into one of the session's
                        // packet size (a loop condition would skip the retry when src is empty: a handshake
                        // message or close_notify).
                        buffers.release(net);
                        net = ByteBuffer.allocate(engine.getSession().getPacketBufferSize());
                        continue;
                    }
                    case CLOSED -> {
                        if (src.hasRemaining()) {
                            throw new SSLException("TLS connection closed for writing");
                        }
                    }
                    case BUFFER_UNDERFLOW -> throw new SSLException("unexpected TLS wrap result " + result);
                }
                net.flip();
                if (net.hasRemaining()) {
                    transport.writeSocket(net.array(), net.arrayOffset() + net.position(), net.remaining());
                }
                if (result.getHandshakeStatus() == HandshakeStatus.NEED_TASK) {
                    runTasks();
                }
                if (result.getStatus() == SSLEngineResult.Status.CLOSED || !src.hasRemaining()) {
                    return;
                }
            }
        } finally {
            buffers.release(net);
            wrapLock.unlock();
        }
    }

    /** Closes the engine's outbound side and sends close_notify, with no application write in between. */
    void closeOutbound() throws IOException {
        wrapLock.lock();
        try {
            engine.closeOutbound();
            wrapAndSend(NO_BYTES);
        } finally {
            wrapLock.unlock();
        }
    }

    /** Runs the engine's tasks and the wraps it asks for (key update, renegotiation, close_notify reply). */
    void finishEngineWork(HandshakeStatus status) throws IOException {
        while (true) {
            if (status == HandshakeStatus.NEED_TASK) {
                runTasks();
            } else if (status == HandshakeStatus.NEED_WRAP) {
                try {
                    wrapAndSend(NO_BYTES);
                } catch (IOException e) {
                    if (engine.isInboundDone()) {
                        return; // replying to a close_notify on a connection the peer already closed: nothing lost
                    }
                    throw e;
                }
            } else {
                return;
            }
            status = engine.getHandshakeStatus();
        }
    }

    /** Runs the engine's delegated tasks on the calling thread. */
    void runTasks() {
        Runnable task;
        while ((task = engine.getDelegatedTask()) != null) {
            task.run();
        }
    }
}
