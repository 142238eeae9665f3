package dev.shuttle.lab.clients;

import dev.shuttle.client.ClientStats;
import dev.shuttle.client.ClientTrace;
import dev.shuttle.client.CompletedResponse;
import dev.shuttle.client.DrainOutcome;
import dev.shuttle.client.DrainPolicy;
import dev.shuttle.client.HttpClient;
import dev.shuttle.client.Origin;
import dev.shuttle.client.PoolConfig;
import dev.shuttle.client.Proxies;
import dev.shuttle.client.Request;
import dev.shuttle.client.Response;
import dev.shuttle.transport.tls.TlsInfo;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Shuttle's own client under one of its drain policies, speaking HTTP/1.1 only, or ({@link ClientKind#SHUTTLE_H2})
 * HTTP/2: with prior knowledge on {@code http} (h2c), through ALPN {@code h2} on {@code https}. The response is closed
 * with {@link Response#close()}, as its documentation says; what the client then does with the unread rest is the
 * policy's business over HTTP/1.1, and a RST_STREAM over HTTP/2.
 */
public final class ShuttleLabClient implements LabClient {

    /** The three policies the lab compares. */
    public enum Policy {
        /** Inline drain, background drain within 256 KiB and 50 ms, hand-off to waiting requests. */
        DEFAULT(ClientKind.SHUTTLE, DrainPolicy.defaults()),
        /** Go 1.27: background drain only, same caps. */
        BOUNDED(ClientKind.SHUTTLE_BOUNDED,
                DrainPolicy.bounded(DrainPolicy.DEFAULT_MAX_BYTES, DrainPolicy.DEFAULT_MAX_TIME)),
        /** Go 1.26: never drain. */
        NONE(ClientKind.SHUTTLE_NONE, DrainPolicy.none());

        private final ClientKind kind;
        private final DrainPolicy drainPolicy;

        Policy(ClientKind kind, DrainPolicy drainPolicy) {
            this.kind = kind;
            this.drainPolicy = drainPolicy;
        }

        public DrainPolicy drainPolicy() {
            return drainPolicy;
        }
    }

    /** Go's DefaultTransport keeps 2 idle connections per host (seed 003). */
    static final int GO_MAX_IDLE_PER_HOST = 2;

    /** How long {@link #ownView()} waits for background drains still running to report their outcome. */
    private static final long DRAIN_REPORT_WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(250);

    private final ClientKind kind;
    private final HttpClient client;
    private final long requestTimeoutMillis;
    private final ReentrantLock bodiesLock = new ReentrantLock();
    private final Condition bodyClosed = bodiesLock.newCondition();
    private long responses; // guarded by bodiesLock: responses handed to the caller
    private long bodiesClosed; // guarded by bodiesLock: bodyClosed events, the last ones come from drain threads
    /** TLS handshakes completed and, of those, resumed; counted on the dialing threads. */
    private final LongAdder tlsHandshakes = new LongAdder();
    private final LongAdder tlsResumed = new LongAdder();

    private ShuttleLabClient(ClientKind kind, Policy policy, boolean http2, ClientOptions options) {
        this.kind = kind;
        this.requestTimeoutMillis = options.requestTimeout().toMillis();
        PoolConfig pool = options.goIdleDefaults()
                ? PoolConfig.builder().maxIdlePerHost(GO_MAX_IDLE_PER_HOST).build()
                : PoolConfig.defaults();
        HttpClient.Builder builder = HttpClient.builder();
        if (options.trust() != null) {
            builder.sslContext(options.trust().newContext())
                    .hostnameVerification(options.trust().verifiesHostnames());
        }
        // HTTP/1.1 kinds offer only http/1.1 in ALPN, as every other lab client does; the h2 kind speaks HTTP/2 to
        // http origins from the first byte and offers h2 (then http/1.1) over TLS.
        builder.http2(http2).http2PriorKnowledge(http2);
        if (options.proxy() != null) {
            builder.proxy(Proxies.of("http://" + options.proxy().getHostString() + ":" + options.proxy().getPort()));
        }
        this.client = builder
                .drainPolicy(policy.drainPolicy)
                .pool(pool)
                .connectTimeout(options.connectTimeout())
                .responseHeaderTimeout(options.requestTimeout())
                .readTimeout(options.requestTimeout())
                .trace(new ClientTrace() {
                    @Override
                    public void tlsHandshakeDone(Origin origin, TlsInfo tls, IOException error) {
                        if (tls != null) {
                            tlsHandshakes.increment();
                            if (tls.resumed()) {
                                tlsResumed.increment();
                            }
                        }
                    }

                    @Override
                    public void bodyClosed(long bytesRead, DrainOutcome outcome, long bytesDiscarded) {
                        bodiesLock.lock();
                        try {
                            bodiesClosed++;
                            bodyClosed.signalAll();
                        } finally {
                            bodiesLock.unlock();
                        }
                    }
                })
                .build();
    }

    static LabClient create(Policy policy, ClientOptions options) {
        return new ShuttleLabClient(policy.kind, policy, false, options);
    }

    /** Shuttle over HTTP/2, default drain policy (which HTTP/2 never needs: an unread body's stream is reset). */
    static LabClient createHttp2(ClientOptions options) {
        return new ShuttleLabClient(ClientKind.SHUTTLE_H2, Policy.DEFAULT, true, options);
    }

    @Override
    public ClientKind kind() {
        return kind;
    }

    @Override
    public CallResult call(URI uri, BodyUse use) throws IOException {
        if (use == BodyUse.CANCEL_MID_BODY) {
            return callAndCancel(uri);
        }
        try (Response response = client.send(Request.get(uri))) {
            counted();
            return new CallResult(response.status(), BodyConsumer.consume(response.body(), use));
        }
    }

    /**
     * Shuttle's way to cancel mid-body: {@code sendAsync} with a handler that reads on, its future cancelled once the
     * first bytes are in. The client then cancels the body rather than interrupting the reading thread.
     */
    private CallResult callAndCancel(URI uri) throws IOException {
        CompletableFuture<CallResult> partRead = new CompletableFuture<>();
        CompletableFuture<CompletedResponse<Long>> call = client.sendAsync(Request.get(uri), response -> {
            counted();
            long read = BodyConsumer.consume(response.body(), BodyUse.CANCEL_MID_BODY);
            partRead.complete(new CallResult(response.status(), read));
            return read + response.body().transferTo(OutputStream.nullOutputStream()); // until the cancel stops it
        });
        try {
            CompletableFuture.anyOf(partRead, call).get(requestTimeoutMillis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            call.cancel(true);
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while calling " + uri);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
        } catch (TimeoutException e) {
            call.cancel(true);
            throw new IOException("no body from " + uri + " within " + requestTimeoutMillis + " ms");
        }
        call.cancel(true);
        return partRead.getNow(new CallResult(200, 0));
    }

    private void counted() {
        bodiesLock.lock();
        try {
            responses++;
        } finally {
            bodiesLock.unlock();
        }
    }

    @Override
    public long connectionsOpened() {
        return client.stats().connectionsOpened();
    }

    /** Shuttle's own account: reuse, retries, how closed bodies ended, bytes drained for nothing. */
    @Override
    public Map<String, Object> ownView() {
        awaitDrainReports();
        ClientStats stats = client.stats();
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("requests", stats.requests());
        view.put("reusedRequests", stats.reusedRequests());
        view.put("retries", stats.retries());
        view.put("connectionsOpened", stats.connectionsOpened());
        view.put("bytesDiscarded", stats.bytesDiscarded());
        view.put("handOffWaits", stats.handOffWaits());
        view.put("handOffDials", stats.handOffDials());
        Map<String, Long> drains = new LinkedHashMap<>();
        for (DrainOutcome outcome : DrainOutcome.values()) {
            long count = stats.drains(outcome);
            if (count > 0) {
                drains.put(outcome.name(), count);
            }
        }
        view.put("drainOutcomes", drains);
        if (tlsHandshakes.sum() > 0) {
            view.put("tlsHandshakes", tlsHandshakes.sum());
            view.put("tlsResumed", tlsResumed.sum());
        }
        return view;
    }

    /** Lets drains of the last responses finish, so their outcomes are counted; bounded by the drain time cap. */
    private void awaitDrainReports() {
        long deadline = System.nanoTime() + DRAIN_REPORT_WAIT_NANOS;
        bodiesLock.lock();
        try {
            while (bodiesClosed < responses) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return;
                }
                bodyClosed.awaitNanos(left);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            bodiesLock.unlock();
        }
    }

    @Override
    public void close() {
        client.close();
    }
}
