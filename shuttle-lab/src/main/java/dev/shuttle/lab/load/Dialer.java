package dev.shuttle.lab.load;

import dev.shuttle.lab.servers.Protocol;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import javax.net.ssl.SSLContext;

/**
 * Opens many connections, each completing one {@code GET /} (proof that it really speaks the protocol, as seed 001's
 * client did), a bounded number at a time so the server's backlog never overflows. For Shuttle's client that request
 * is what dials its connection.
 */
final class Dialer {
    static final int CONCURRENCY = 32;
    static final Duration TIMEOUT = Duration.ofSeconds(30);

    /** The connections that answered, how many failed and the first failure. */
    record Dialed(List<LabConnection> connections, int failed, String firstError) {
    }

    private final Protocol protocol;
    private final InetSocketAddress address;
    private final SSLContext tls;
    private final boolean shuttleClient;

    /**
     * {@code tls}: the client context over TLS (trusting the lab's authority), null in cleartext;
     * {@code shuttleClient}: each connection is Shuttle's own client ({@link ShuttleClientConnection}), not the lab's
     * hand-rolled one.
     */
    Dialer(Protocol protocol, InetSocketAddress address, SSLContext tls, boolean shuttleClient) {
        this.protocol = protocol;
        this.address = address;
        this.tls = tls;
        this.shuttleClient = shuttleClient;
    }

    Protocol protocol() {
        return protocol;
    }

    Dialed openAll(int count) throws InterruptedException {
        List<LabConnection> opened = Collections.synchronizedList(new ArrayList<>(count));
        AtomicInteger failed = new AtomicInteger();
        AtomicReference<String> firstError = new AtomicReference<>();
        Semaphore permits = new Semaphore(CONCURRENCY);
        try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < count; i++) {
                permits.acquire();
                executor.submit(() -> {
                    try {
                        opened.add(openOne());
                    } catch (IOException | RuntimeException e) {
                        failed.incrementAndGet();
                        firstError.compareAndSet(null, e.toString());
                    } finally {
                        permits.release();
                    }
                });
            }
        }
        return new Dialed(new ArrayList<>(opened), failed.get(), firstError.get());
    }

    LabConnection openOne() throws IOException {
        LabConnection connection = shuttleClient ? ShuttleClientConnection.open(protocol, address, TIMEOUT)
                : LabConnection.open(protocol, address, tls, TIMEOUT);
        try {
            connection.send();
            LabConnection.Completion first = connection.awaitResponse();
            if (!first.ok()) {
                throw new IOException("first request answered with status " + first.status());
            }
            return connection;
        } catch (IOException | RuntimeException e) {
            connection.close();
            throw e;
        }
    }
}
