package dev.shuttle.benchmarks.client;

import java.net.URI;
import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.HttpClientTransport;
import org.eclipse.jetty.client.transport.HttpClientTransportOverHTTP;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.http2.client.HTTP2Client;
import org.eclipse.jetty.http2.client.transport.HttpClientTransportOverHTTP2;
import org.eclipse.jetty.io.ClientConnector;
import org.eclipse.jetty.util.ssl.SslContextFactory;

/**
 * Jetty 12's {@code HttpClient}, its blocking {@code send()} buffering the whole body. h1 is
 * {@link HttpClientTransportOverHTTP} with the pool at the benchmark's concurrency (Jetty's default, 64 per
 * destination); h2c and h2 are {@link HttpClientTransportOverHTTP2}, which speaks HTTP/2 from the first byte on
 * {@code http} (prior knowledge) and offers only h2 in ALPN over TLS (jetty-alpn-java-client). Its multiplexed pool
 * opens a second connection only when a connection's streams are all taken, or when requests arrive before the first
 * connection has the server's SETTINGS: the harness's checked request opens the first one alone.
 */
final class JettyBenchClient implements BenchClient {
    private final HttpClient client;

    JettyBenchClient(int maxConnections, Protocol protocol) {
        ClientConnector connector = new ClientConnector();
        SslContextFactory.Client tls = new SslContextFactory.Client();
        tls.setSslContext(TrustAll.context());
        tls.setEndpointIdentificationAlgorithm(null);
        connector.setSslContextFactory(tls);
        HttpClientTransport transport = protocol == Protocol.H1
                ? new HttpClientTransportOverHTTP(connector)
                : new HttpClientTransportOverHTTP2(new HTTP2Client(connector));
        client = new HttpClient(transport);
        client.setMaxConnectionsPerDestination(maxConnections);
        try {
            client.start();
        } catch (Exception e) {
            throw new IllegalStateException("Jetty HttpClient did not start", e);
        }
    }

    @Override
    public int get(URI uri) throws Exception {
        return client.newRequest(uri).send().getContent().length;
    }

    @Override
    public Checked check(URI uri) throws Exception {
        ContentResponse response = client.newRequest(uri).send();
        return new Checked(response.getVersion() == HttpVersion.HTTP_2 ? "HTTP/2" : "HTTP/1.1", response.getContent());
    }

    @Override
    public void close() throws Exception {
        client.stop();
    }
}
