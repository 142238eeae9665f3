package dev.shuttle.lab.proxy;

import dev.shuttle.client.HttpClient;
import dev.shuttle.proxy.ReverseProxy;
import dev.shuttle.server.HttpServer;
import java.io.IOException;

/** Shuttle's reverse proxy with its own client's defaults (its upstream drain policy included), in this JVM. */
final class ShuttleProxy implements RunningProxy {
    private final HttpClient client;
    private final ReverseProxy proxy;
    private final HttpServer server;

    ShuttleProxy(int upstreamPort) throws IOException {
        this.client = ReverseProxy.clientBuilder().build();
        this.proxy = ReverseProxy.to("http://127.0.0.1:" + upstreamPort).client(client).build();
        try {
            this.server = HttpServer.builder().handler(proxy).start();
        } catch (IOException | RuntimeException e) {
            client.close();
            throw e;
        }
    }

    @Override
    public int port() {
        return server.port();
    }

    @Override
    public String version() {
        return "shuttle";
    }

    @Override
    public void close() {
        server.close();
        client.close();
    }
}
