package dev.shuttle.benchmarks.client;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/**
 * The JDK's java.net.http client; its pool is unbounded by default. HTTP/1.1 is forced for {@link Protocol#H1}; for
 * h2 and h2c the version is HTTP_2. The JDK has no prior knowledge: over {@code http} it sends its first request on
 * a connection as HTTP/1.1 with {@code Upgrade: h2c}, and the connection speaks HTTP/2 from the response on, so the
 * harness's first (checked) request is the upgrade and every measured one is h2c.
 */
final class JdkBenchClient implements BenchClient {
    private final HttpClient client;

    JdkBenchClient(Protocol protocol) {
        client = HttpClient.newBuilder()
                .version(protocol == Protocol.H1 ? HttpClient.Version.HTTP_1_1 : HttpClient.Version.HTTP_2)
                .sslContext(TrustAll.context())
                .build();
    }

    @Override
    public int get(URI uri) throws Exception {
        HttpResponse<byte[]> response = client.send(HttpRequest.newBuilder(uri).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        return response.body().length;
    }

    @Override
    public Checked check(URI uri) throws Exception {
        HttpResponse<byte[]> response = client.send(HttpRequest.newBuilder(uri).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        return new Checked(response.version() == HttpClient.Version.HTTP_2 ? "HTTP/2" : "HTTP/1.1", response.body());
    }

    @Override
    public void close() {
        client.close();
    }
}
