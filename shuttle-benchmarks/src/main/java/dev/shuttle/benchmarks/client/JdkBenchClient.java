package dev.shuttle.benchmarks.client;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/** The JDK's java.net.http client, forced to HTTP/1.1; its pool is unbounded by default. */
final class JdkBenchClient implements BenchClient {
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @Override
    public int get(URI uri) throws Exception {
        HttpResponse<byte[]> response = client.send(HttpRequest.newBuilder(uri).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        return response.body().length;
    }

    @Override
    public void close() {
        client.close();
    }
}
