package dev.shuttle.benchmarks.client;

import java.net.URI;
import java.util.concurrent.TimeUnit;
import okhttp3.ConnectionPool;
import okhttp3.OkHttpClient;
import okhttp3.Response;

/** OkHttp 5 with its idle pool raised from 5 to the benchmark's concurrency, so it does not re-dial. */
final class OkHttpBenchClient implements BenchClient {
    private final OkHttpClient client;

    OkHttpBenchClient(int maxConnections) {
        client = new OkHttpClient.Builder()
                .connectionPool(new ConnectionPool(maxConnections, 5, TimeUnit.MINUTES))
                .build();
    }

    @Override
    public int get(URI uri) throws Exception {
        okhttp3.Request request = new okhttp3.Request.Builder().url(uri.toString()).build();
        try (Response response = client.newCall(request).execute()) {
            return response.body().bytes().length;
        }
    }

    @Override
    public void close() {
        client.dispatcher().executorService().shutdown();
        client.connectionPool().evictAll();
    }
}
