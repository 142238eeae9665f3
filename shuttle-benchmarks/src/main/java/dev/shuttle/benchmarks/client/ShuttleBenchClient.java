package dev.shuttle.benchmarks.client;

import dev.shuttle.client.HttpClient;
import dev.shuttle.client.Request;
import dev.shuttle.client.Response;
import java.net.URI;

/**
 * Shuttle's client with its defaults, but for the protocol: HTTP/1.1 offers only http/1.1 over TLS, h2c is prior
 * knowledge ({@code http2PriorKnowledge}), h2 is ALPN (the default for https). Only public harness types here: the
 * baseline build defines this class again in another class loader ({@link BaselineShuttle}).
 */
final class ShuttleBenchClient implements BenchClient {
    private final HttpClient client;

    ShuttleBenchClient(Protocol protocol) {
        client = HttpClient.builder()
                .sslContext(TrustAll.context())
                .hostnameVerification(false)
                .http2(protocol != Protocol.H1)
                .http2PriorKnowledge(protocol == Protocol.H2C)
                .build();
    }

    @Override
    public int get(URI uri) throws Exception {
        try (Response response = client.send(Request.get(uri))) {
            return response.bytes().length;
        }
    }

    @Override
    public Checked check(URI uri) throws Exception {
        try (Response response = client.send(Request.get(uri))) {
            return new Checked(response.version().text(), response.bytes());
        }
    }

    @Override
    public void close() {
        client.close();
    }
}
