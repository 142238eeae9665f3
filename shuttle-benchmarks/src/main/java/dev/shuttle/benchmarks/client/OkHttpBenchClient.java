package dev.shuttle.benchmarks.client;

import java.net.URI;
import java.util.List;
import java.util.concurrent.TimeUnit;
import okhttp3.ConnectionPool;
import okhttp3.OkHttpClient;
import okhttp3.Response;

/**
 * OkHttp 5 with its idle pool raised from 5 to the benchmark's concurrency, so it does not re-dial. h2c is
 * {@code H2_PRIOR_KNOWLEDGE} (its only protocol then); h2 is ALPN, OkHttp's default protocols.
 */
final class OkHttpBenchClient implements BenchClient {
    private final OkHttpClient client;

    OkHttpBenchClient(int maxConnections, Protocol protocol) {
        OkHttpClient.Builder builder = new OkHttpClient.Builder()
                .connectionPool(new ConnectionPool(maxConnections, 5, TimeUnit.MINUTES))
                .sslSocketFactory(TrustAll.context().getSocketFactory(), TrustAll.MANAGER)
                .hostnameVerifier((host, session) -> true);
        switch (protocol) {
            case H1 -> builder.protocols(List.of(okhttp3.Protocol.HTTP_1_1));
            case H2C -> builder.protocols(List.of(okhttp3.Protocol.H2_PRIOR_KNOWLEDGE));
            case H2 -> builder.protocols(List.of(okhttp3.Protocol.HTTP_2, okhttp3.Protocol.HTTP_1_1));
        }
        client = builder.build();
    }

    @Override
    public int get(URI uri) throws Exception {
        okhttp3.Request request = new okhttp3.Request.Builder().url(uri.toString()).build();
        try (Response response = client.newCall(request).execute()) {
            return response.body().bytes().length;
        }
    }

    @Override
    public Checked check(URI uri) throws Exception {
        okhttp3.Request request = new okhttp3.Request.Builder().url(uri.toString()).build();
        try (Response response = client.newCall(request).execute()) {
            boolean http2 = response.protocol() == okhttp3.Protocol.HTTP_2
                    || response.protocol() == okhttp3.Protocol.H2_PRIOR_KNOWLEDGE;
            return new Checked(http2 ? "HTTP/2" : "HTTP/1.1", response.body().bytes());
        }
    }

    @Override
    public void close() {
        client.dispatcher().executorService().shutdown();
        client.connectionPool().evictAll();
    }
}
