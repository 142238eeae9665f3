package dev.shuttle.lab.servers;

import io.helidon.webserver.WebServer;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.http2.Http2Config;

/**
 * Helidon 4 SE webserver: one virtual thread per connection (and per HTTP/2 stream). Its HTTP/1.1 and HTTP/2
 * providers are both discovered on the listener, which picks HTTP/2 when a connection starts with the preface; the
 * HTTP/2 configuration gets the lab's stream limits.
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
