package dev.shuttle.benchmarks.client;

import dev.shuttle.client.HttpClient;
import dev.shuttle.client.Request;
import dev.shuttle.client.Response;
import java.net.URI;

/** Shuttle's client with its defaults. */
final class ShuttleBenchClient implements BenchClient {
    private final HttpClient client = HttpClient.create();

    @Override
    public int get(URI uri) throws Exception {
        try (Response response = client.send(Request.get(uri))) {
            return response.bytes().length;
        }
    }

    @Override
    public void close() {
        client.close();
    }
}
