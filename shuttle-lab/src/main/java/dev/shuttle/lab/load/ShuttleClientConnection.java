package dev.shuttle.lab.load;

import dev.shuttle.client.HttpClient;
import dev.shuttle.client.PoolConfig;
import dev.shuttle.client.Request;
import dev.shuttle.client.Response;
import dev.shuttle.lab.servers.Protocol;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * One lab connection made of Shuttle's own {@link HttpClient} (issues 9 and 10: Shuttle's client as a load generator
 * of {@code lab busy --generator shuttle}): a client per connection, its pool held to exactly one connection
 * ({@code maxConnsPerHost(1)}), h2c with prior knowledge or HTTP/1.1. {@link #send()} runs
 * {@code client.send(GET /)} on a new virtual thread, which reads the body to its end, closes the response and
 * queues the completion; {@link #awaitResponse()} takes the next one from the queue. The connection is dialed by the
 * first request (the {@link Dialer}'s), so it exists before the window; a response that came over any other
 * connection (the client re-dialed after losing it) is reported as a failure, as a lost socket is for the lab's
 * hand-rolled connections. Latency includes the client's own costs: the virtual thread's start, the pool's lease,
 * the hand-off through the queue.
 */
final class ShuttleClientConnection implements LabConnection {
    private final HttpClient client;
    private final Request request;
    /** Completions and failures, in the order they happened. */
    private final BlockingQueue<Object> done = new LinkedBlockingQueue<>();

    private ShuttleClientConnection(HttpClient client, Request request) {
        this.client = client;
        this.request = request;
    }

    /** The generator's name in the report for {@code protocol}. */
    static String generatorName(Protocol protocol) {
        return switch (protocol) {
            case H2C -> "shuttle-h2";
            case HTTP1 -> "shuttle-http1";
            case HTTPS, H2 -> throw new IllegalArgumentException(unsupported(protocol));
        };
    }

    static String unsupported(Protocol protocol) {
        return "--generator shuttle works over h2c and http1 only, not " + protocol.cliName();
    }

    /** A client for {@code address} over {@code protocol}; nothing is dialed until the first {@link #send()}. */
    static ShuttleClientConnection open(Protocol protocol, InetSocketAddress address, Duration timeout) {
        generatorName(protocol); // refuses the protocols it cannot speak
        HttpClient client = HttpClient.builder()
                .http2PriorKnowledge(protocol == Protocol.H2C)
                .pool(PoolConfig.builder().maxConnsPerHost(1).maxIdlePerHost(1).build())
                .connectTimeout(timeout)
                .readTimeout(timeout)
                .writeTimeout(timeout)
                .build();
        Request request = Request.get("http://" + address.getHostString() + ":" + address.getPort() + "/");
        return new ShuttleClientConnection(client, request);
    }

    /** The pool queues requests beyond the server's stream limit on the one connection. */
    @Override
    public int maxInFlight() {
        return Integer.MAX_VALUE;
    }

    @Override
    public void send() {
        long sentNanos = System.nanoTime();
        Thread.ofVirtual().name("shuttle-lab-request").start(() -> done.add(exchange(sentNanos)));
    }

    private Object exchange(long sentNanos) {
        try (Response response = client.send(request)) {
            response.discard();
            if (response.connection().id() != 1) {
                return new IOException("the Shuttle client is on connection " + response.connection().id()
                        + ": it lost its first one");
            }
            return new Completion(Math.max(1, response.streamId()), response.status(), sentNanos); // 1 on HTTP/1.1
        } catch (IOException | RuntimeException e) {
            return e;
        }
    }

    @Override
    public Completion awaitResponse() throws IOException {
        Object next;
        try {
            next = done.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted waiting for a response");
        }
        return switch (next) {
            case Completion completion -> completion;
            case IOException e -> throw e;
            case RuntimeException e -> throw e;
            default -> throw new IllegalStateException("unexpected " + next);
        };
    }

    /** Shuttle's client is a load generator only; {@code lab idle} holds the lab's hand-rolled connections. */
    @Override
    public void holdIdle() {
        throw new UnsupportedOperationException("the Shuttle client connection is for lab busy only");
    }

    @Override
    public void close() {
        client.close();
    }
}
