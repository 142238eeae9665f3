package dev.shuttle.benchmarks.server;

import dev.shuttle.server.Http2Options;
import dev.shuttle.server.HttpServer;
import dev.shuttle.server.ServerTimeouts;
import dev.shuttle.transport.tls.SelfSignedCertificate;
import java.io.IOException;
import java.time.Duration;

/** Shuttle's server answering every request with the same 1 KiB body. */
final class ShuttleOneKiBServer implements BenchmarkServer {
    private final HttpServer server;

    ShuttleOneKiBServer(int port) throws IOException {
        this(port, null);
    }

    /** With {@code tls}: HTTPS, HTTP/1.1 only (HTTP/2 off, so ALPN selects http/1.1). */
    ShuttleOneKiBServer(int port, SelfSignedCertificate tls) throws IOException {
        byte[] body = OneKiB.BODY;
        HttpServer.Builder builder = HttpServer.builder();
        if (tls != null) {
            builder.tls(tls.serverContext()).http2(Http2Options.disabled());
        }
        server = builder
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
