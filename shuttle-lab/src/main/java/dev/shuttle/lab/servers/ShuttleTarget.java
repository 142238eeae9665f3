package dev.shuttle.lab.servers;

import dev.shuttle.server.HttpServer;
import dev.shuttle.server.ServerTimeouts;

/**
 * Shuttle's server, parking on or off. This is the one class to change when Shuttle's HTTP/2 server lands: make
 * {@link #checkSupported} accept {@link Protocol#H2C} and enable h2c on the builder in {@link #start}, with
 * {@link ServerSettings#maxConcurrentStreams()} and {@link ServerSettings#initialWindowSize()} as the other servers
 * get them. Nothing else in the lab knows that Shuttle's HTTP/2 is missing.
 */
final class ShuttleTarget implements ServerTarget {
    static final String HTTP2_PENDING = "Shuttle's HTTP/2 server is not built yet";

    private final boolean parking;

    ShuttleTarget(boolean parking) {
        this.parking = parking;
    }

    @Override
    public void checkSupported(Protocol protocol) {
        if (protocol != Protocol.HTTP1) {
            throw new UnsupportedProtocolException(HTTP2_PENDING + " (" + protocol + " needs it; http1 works)");
        }
    }

    @Override
    public RunningServer start(Protocol protocol, ServerSettings settings) throws Exception {
        checkSupported(protocol);
        byte[] body = ServerSettings.BODY;
        HttpServer server = HttpServer.builder()
                .port(0)
                .backlog(settings.backlog())
                .parking(parking)
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
