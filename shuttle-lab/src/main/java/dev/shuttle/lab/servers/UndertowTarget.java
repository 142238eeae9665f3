package dev.shuttle.lab.servers;

import io.undertow.Undertow;
import io.undertow.UndertowOptions;
import io.undertow.util.Headers;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import org.xnio.Options;

/**
 * Undertow 2 core (no servlets), default I/O and worker threads. With {@code ENABLE_HTTP2} its HTTP/1.1 listener
 * hands a connection that starts with the HTTP/2 preface to its HTTP/2 implementation (prior knowledge).
 */
final class UndertowTarget implements ServerTarget {
    @Override
    public RunningServer start(Protocol protocol, ServerSettings settings) throws Exception {
        checkSupported(protocol);
        byte[] body = ServerSettings.BODY;
        Undertow.Builder builder = Undertow.builder()
                .addHttpListener(0, "127.0.0.1")
                .setSocketOption(Options.BACKLOG, settings.backlog())
                .setServerOption(UndertowOptions.IDLE_TIMEOUT, settings.idleTimeoutMillis())
                .setServerOption(UndertowOptions.NO_REQUEST_TIMEOUT, settings.idleTimeoutMillis())
                .setHandler(exchange -> {
                    exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "text/plain");
                    exchange.getResponseHeaders().put(Headers.CONTENT_LENGTH, body.length);
                    exchange.getResponseSender().send(ByteBuffer.wrap(body));
                });
        if (protocol == Protocol.H2C) {
            builder.setServerOption(UndertowOptions.ENABLE_HTTP2, true)
                    .setServerOption(UndertowOptions.HTTP2_SETTINGS_MAX_CONCURRENT_STREAMS,
                            settings.maxConcurrentStreams())
                    .setServerOption(UndertowOptions.HTTP2_SETTINGS_INITIAL_WINDOW_SIZE,
                            settings.initialWindowSize());
        }
        Undertow server = builder.build();
        server.start();
        int port = ((InetSocketAddress) server.getListenerInfo().getFirst().getAddress()).getPort();
        return new RunningServer() {
            @Override
            public int port() {
                return port;
            }

            @Override
            public void close() {
                server.stop();
            }
        };
    }
}
