package dev.shuttle.benchmarks.server;

import dev.shuttle.server.HttpServer;
import dev.shuttle.server.ServerTimeouts;
import java.io.IOException;
import java.time.Duration;

/** Shuttle's server answering every request with the same 1 KiB body. */
final class ShuttleOneKiBServer implements BenchmarkServer {
    private final HttpServer server;

    ShuttleOneKiBServer(int port) throws IOException {
        byte[] body = OneKiB.BODY;
        server = HttpServer.builder()
                .port(port)
                // The idle-connection measurement holds connections for longer than the default keep-alive.
                .timeouts(ServerTimeouts.defaults().toBuilder().idle(Duration.ofMinutes(10)).build())
                .handler((request, response) -> {
                    response.status(200).header("Content-Type", "text/plain");
                    response.send(body);
                })
                .build()
                .start();
    }

    @Override
    public int port() {
        return server.port();
    }

    @Override
    public void close() {
        server.close();
    }
}
