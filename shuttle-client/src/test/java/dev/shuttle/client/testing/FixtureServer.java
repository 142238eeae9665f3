package dev.shuttle.client.testing;

import dev.shuttle.server.ConnectionState;
import dev.shuttle.server.HttpServer;
import dev.shuttle.server.Request;
import dev.shuttle.server.Response;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Shuttle's own server with the lab's response cases, counting connections with its connection-state listener.
 *
 * <p>Paths (sizes in bytes, times in ms):
 * <ul>
 *   <li>{@code /cl/N}: Content-Length body of N bytes</li>
 *   <li>{@code /chunked/N}: chunked body of N bytes (committed before the body, so always chunked)</li>
 *   <li>{@code /close/N}: Content-Length body with {@code Connection: close}</li>
 *   <li>{@code /pause/MS/N}: Content-Length body, its second half sent MS later</li>
 *   <li>{@code /chunked-pause/MS/N}: chunked body, its second half MS later</li>
 *   <li>{@code /json-chunked}, {@code /json-cl}: {@code {"a":1}\n}</li>
 *   <li>{@code /slow-head/MS}: the head after MS</li>
 *   <li>{@code /short/N}: declares Content-Length N, sends N/2 and closes</li>
 *   <li>{@code /echo}: the request body back, with the method in {@code X-Method}</li>
 *   <li>{@code /barrier}: waits at the barrier set with {@link #barrier}, then answers "ok"</li>
 *   <li>{@code /status/CODE}: an empty response with that status</li>
 * </ul>
 */
public final class FixtureServer implements AutoCloseable {
    private final HttpServer server;
    private final AtomicLong newConnections = new AtomicLong();
    private final AtomicLong closedConnections = new AtomicLong();
    private final AtomicLong responsesFinished = new AtomicLong();
    private final AtomicInteger activeHandlers = new AtomicInteger();
    private final AtomicInteger maxActiveHandlers = new AtomicInteger();
    private volatile CyclicBarrier barrier;

    public FixtureServer() throws IOException {
        this.server = HttpServer.builder()
                .port(0)
                .handler(this::handleCounted)
                .connectionListener((connection, from, to) -> {
                    if (to == ConnectionState.NEW) {
                        newConnections.incrementAndGet();
                    } else if (to == ConnectionState.CLOSED) {
                        closedConnections.incrementAndGet();
                    }
                    if (from == ConnectionState.ACTIVE && to == ConnectionState.IDLE) {
                        responsesFinished.incrementAndGet();
                    }
                })
                .start();
    }

    public URI uri(String path) {
        return URI.create("http://127.0.0.1:" + server.port() + path);
    }

    public int port() {
        return server.port();
    }

    /** Connections accepted so far (the lab's "new connections"). */
    public long newConnections() {
        return newConnections.get();
    }

    /** Connections currently open at the server. */
    public long openConnections() {
        return newConnections.get() - closedConnections.get();
    }

    /**
     * HTTP/1.1 responses the server finished writing, every byte handed to the socket, on connections it kept open
     * (its listener's ACTIVE to IDLE): once it counts a response, that response is in the client's socket.
     */
    public long responsesFinished() {
        return responsesFinished.get();
    }

    public long requests() {
        return server.stats().requests();
    }

    /** Requests of {@code /barrier} wait here until the barrier trips (bounded, so a broken test cannot hang). */
    public void barrier(CyclicBarrier barrier) {
        this.barrier = barrier;
    }

    /** The most handlers that ran at the same time. */
    public int maxConcurrentRequests() {
        return maxActiveHandlers.get();
    }

    private void handleCounted(Request request, Response response) throws Exception {
        int active = activeHandlers.incrementAndGet();
        maxActiveHandlers.accumulateAndGet(active, Math::max);
        try {
            if (request.path().equals("/barrier")) {
                barrier.await(10, TimeUnit.SECONDS);
                response.send("ok");
                return;
            }
            handle(request, response);
        } finally {
            activeHandlers.decrementAndGet();
        }
    }

    private static void handle(Request request, Response response) throws Exception {
        String[] parts = Arrays.stream(request.path().split("/")).filter(s -> !s.isEmpty()).toArray(String[]::new);
        switch (parts[0]) {
            case "cl" -> response.send(body(Integer.parseInt(parts[1])));
            case "chunked" -> {
                response.flush();
                write(response.body(), body(Integer.parseInt(parts[1])));
            }
            case "close" -> {
                response.header("Connection", "close");
                response.send(body(Integer.parseInt(parts[1])));
            }
            case "pause", "chunked-pause" -> {
                int pause = Integer.parseInt(parts[1]);
                byte[] body = body(Integer.parseInt(parts[2]));
                if (parts[0].equals("pause")) {
                    response.contentLength(body.length);
                }
                OutputStream out = response.body();
                out.write(body, 0, body.length / 2);
                response.flush();
                Thread.sleep(pause);
                out.write(body, body.length / 2, body.length - body.length / 2);
            }
            case "json-chunked" -> {
                response.flush();
                write(response.body(), "{\"a\":1}\n".getBytes(StandardCharsets.UTF_8));
            }
            case "json-cl" -> response.send("{\"a\":1}\n".getBytes(StandardCharsets.UTF_8));
            case "slow-head" -> {
                Thread.sleep(Integer.parseInt(parts[1]));
                response.send("late");
            }
            case "short" -> {
                byte[] body = body(Integer.parseInt(parts[1]));
                response.contentLength(body.length);
                response.body().write(body, 0, body.length / 2);
                response.flush();
                throw new IOException("fixture: cutting the body short on purpose");
            }
            case "echo" -> {
                byte[] body = request.bodyBytes();
                response.header("X-Method", request.method());
                response.send(body);
            }
            case "status" -> response.status(Integer.parseInt(parts[1]));
            default -> response.send(404, "no such fixture: " + request.path());
        }
    }

    private static void write(OutputStream out, byte[] bytes) throws IOException {
        out.write(bytes);
    }

    static byte[] body(int size) {
        byte[] body = new byte[size];
        Arrays.fill(body, (byte) 'x');
        return body;
    }

    @Override
    public void close() {
        server.close();
    }
}
