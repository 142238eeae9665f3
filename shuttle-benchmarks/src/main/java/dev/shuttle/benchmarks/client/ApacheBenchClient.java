package dev.shuttle.benchmarks.client;

import java.net.URI;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.http.io.entity.EntityUtils;

/** Apache HttpClient 5 classic with its pool raised from 5 per route to the benchmark's concurrency. */
final class ApacheBenchClient implements BenchClient {
    private final CloseableHttpClient client;

    ApacheBenchClient(int maxConnections) {
        PoolingHttpClientConnectionManager pool = PoolingHttpClientConnectionManagerBuilder.create()
                .setMaxConnTotal(maxConnections)
                .setMaxConnPerRoute(maxConnections)
                .build();
        client = HttpClients.custom().setConnectionManager(pool).build();
    }

    @Override
    public int get(URI uri) throws Exception {
        return client.execute(new HttpGet(uri), response -> EntityUtils.toByteArray(response.getEntity()).length);
    }

    @Override
    public Checked check(URI uri) throws Exception {
        return client.execute(new HttpGet(uri), response -> new Checked(
                response.getVersion().format(), EntityUtils.toByteArray(response.getEntity())));
    }

    @Override
    public void close() throws Exception {
        client.close();
    }
}
