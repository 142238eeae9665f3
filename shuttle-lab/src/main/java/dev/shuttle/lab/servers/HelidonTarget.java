package dev.shuttle.lab.servers;

import io.helidon.webserver.WebServer;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.http2.Http2Config;

/**
 * Helidon 4 SE webserver: one virtual thread per connection (and per HTTP/2 stream). Its HTTP/1.1 and HTTP/2
 * providers are both discovered on the listener, which picks HTTP/2 when a connection starts with the preface; the
 * HTTP/2 configuration gets the lab's stream limits. Helidon is the one server here whose sockets keep Nagle's
 * algorithm on by default; with HTTP/2's separate HEADERS and DATA writes that costs a delayed-ACK wait (about 40 ms)
 * per response under load (2 525 requests/s in the hot scenario), so the lab sets TCP_NODELAY as every other server
 * does by default.
 */
final class HelidonTarget implements ServerTarget {
    @Override
    public RunningServer start(Protocol protocol, ServerSettings settings) throws Exception {
        checkSupported(protocol);
        byte[] body = ServerSettings.BODY;
        WebServerConfig.Builder builder = WebServer.builder()
                .host("127.0.0.1")
                .port(0)
                .backlog(settings.backlog())
                .shutdownHook(false)
                .idleConnectionTimeout(settings.idleTimeout())
                .connectionOptions(socket -> socket.tcpNoDelay(true))
                .routing(routing -> routing.get("/", (request, response) -> {
                    response.header("Content-Type", "text/plain");
                    response.send(body);
                }));
        if (protocol == Protocol.H2C) {
            builder.addProtocol(Http2Config.builder()
                    .maxConcurrentStreams(settings.maxConcurrentStreams())
                    .initialWindowSize(settings.initialWindowSize())
                    .build());
        }
        WebServer server = builder.build().start();
        return new RunningServer() {
            @Override
            public int port() {
                return server.port();
            }

            @Override
            public void close() {
                server.stop();
            }
        };
    }
}
