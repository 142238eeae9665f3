package dev.shuttle.lab.servers;

import dev.shuttle.server.Http2Options;
import dev.shuttle.server.HttpServer;
import dev.shuttle.server.ServerTimeouts;

/**
 * Shuttle's server, parking on or off. Over h2c it speaks HTTP/2 with prior knowledge (and HTTP/1.1 to a client that
 * does not start with the preface) with the lab's stream limit and initial stream window, as the other servers get
 * them; over http1 HTTP/2 is switched off; over https too, with {@code tls(SSLContext)} from the lab's key store
 * (so ALPN can only select http/1.1).
 */
final class ShuttleTarget implements ServerTarget {
    private final boolean parking;

    ShuttleTarget(boolean parking) {
        this.parking = parking;
    }

    @Override
    public void checkSupported(Protocol protocol) {
        ServerTarget.checkSupportedWithHttps(protocol);
    }

    @Override
    public RunningServer start(Protocol protocol, ServerSettings settings) throws Exception {
        checkSupported(protocol);
        byte[] body = ServerSettings.BODY;
        Http2Options http2 = protocol == Protocol.H2C
                ? Http2Options.builder()
                        .cleartext(true)
                        .maxConcurrentStreams(settings.maxConcurrentStreams())
                        .initialWindowSize(settings.initialWindowSize())
                        .build()
                : Http2Options.disabled();
        HttpServer.Builder builder = HttpServer.builder();
        if (protocol == Protocol.HTTPS) {
            builder.tls(LabTls.serverContext(settings.requireKeyStore()));
        }
        HttpServer server = builder
                .port(0)
                .backlog(settings.backlog())
                .parking(parking)
                .http2(http2)
                .timeouts(ServerTimeouts.defaults().toBuilder().idle(settings.idleTimeout()).build())
                .handler((request, response) -> response.header("Content-Type", "text/plain").send(body))
                .build()
                .start();
        return new RunningServer() {
            @Override
            public int port() {
                return server.port();
            }

            @Override
            public void close() {
                server.close();
            }
        };
    }
}
