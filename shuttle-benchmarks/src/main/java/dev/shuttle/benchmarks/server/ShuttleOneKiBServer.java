package dev.shuttle.benchmarks.server;

import dev.shuttle.server.Http2Options;
import dev.shuttle.server.HttpServer;
import dev.shuttle.server.ServerTimeouts;
import dev.shuttle.transport.tls.SelfSignedCertificate;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Shuttle's server answering every request with the same 1 KiB body, but for {@code /stats/connections}: the
 * connections it has accepted so far, as text (as {@link JettyOneKiBServer} does, for the client benchmarks' count of
 * connections dialed). Plaintext, it speaks HTTP/1.1 and h2c (a connection opening with the HTTP/2 preface, or an
 * {@code Upgrade: h2c}): the server's defaults.
 */
final class ShuttleOneKiBServer implements BenchmarkServer {
    private final HttpServer server;

    ShuttleOneKiBServer(int port) throws IOException {
        this(port, null, false);
    }

    /**
     * With {@code tls}: HTTPS; with {@code http2} ALPN offers h2 then http/1.1 (the server's default), without it
     * HTTP/2 is off and ALPN can only select http/1.1.
     */
    ShuttleOneKiBServer(int port, SelfSignedCertificate tls, boolean http2) throws IOException {
        byte[] body = OneKiB.BODY;
        HttpServer.Builder builder = HttpServer.builder();
        if (tls != null) {
            builder.tls(tls.serverContext()).http2(http2 ? Http2Options.defaults() : Http2Options.disabled());
        }
        AtomicReference<HttpServer> self = new AtomicReference<>();
        server = builder
                .port(port)
                // The idle-connection measurement holds connections for longer than the default keep-alive.
                .timeouts(ServerTimeouts.defaults().toBuilder().idle(Duration.ofMinutes(10)).build())
                .handler((request, response) -> {
                    if (request.path().equals("/stats/connections")) {
                        byte[] text = (self.get().stats().accepted() + "\n").getBytes(StandardCharsets.US_ASCII);
                        response.status(200).header("Content-Type", "text/plain");
                        response.send(text);
                        return;
                    }
                    response.status(200).header("Content-Type", "text/plain");
                    response.send(body);
                })
                .build();
        self.set(server);
        server.start();
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
