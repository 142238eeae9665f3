package dev.shuttle.benchmarks.client;

import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;

/**
 * One HTTP client as the close() measurement drives it: send a GET, get the response once its head has arrived, and
 * hand back what the caller closes without reading the body. {@link CloseLatency} times that close alone. Public
 * because the baseline Shuttle build ({@link BaselineShuttle}) implements it from another class loader.
 */
public interface UnreadCloser extends AutoCloseable {
    /** Sends a GET to {@code uri} and returns the open response, body unread. */
    AutoCloseable open(URI uri) throws Exception;

    static UnreadCloser create(String name) {
        return switch (name) {
            case "shuttle", "shuttle-bounded", "shuttle-none" -> new ShuttleUnreadCloser(policy(name));
            case "shuttle-base", "shuttle-base-bounded", "shuttle-base-none" ->
                    BaselineShuttle.create(ShuttleUnreadCloser.class, UnreadCloser.class, policy(name));
            case "okhttp" -> new OkHttp();
            case "apache" -> new Apache();
            case "jdk" -> new Jdk();
            default -> throw new IllegalArgumentException("unknown client " + name
                    + " (shuttle[-base], shuttle[-base]-bounded, shuttle[-base]-none, okhttp, apache, jdk)");
        };
    }

    /** The drain policy a Shuttle client name asks for: default, bounded or none. */
    private static String policy(String name) {
        return name.endsWith("-bounded") ? "bounded" : name.endsWith("-none") ? "none" : "default";
    }

    /** OkHttp 5: {@code Response.close()} of an unread body discards what it can within 100 ms, blocking. */
    final class OkHttp implements UnreadCloser {
        private final okhttp3.OkHttpClient client = new okhttp3.OkHttpClient.Builder()
                .connectionPool(new okhttp3.ConnectionPool(5, 5, TimeUnit.MINUTES))
                .build();

        @Override
        public AutoCloseable open(URI uri) throws Exception {
            return client.newCall(new okhttp3.Request.Builder().url(uri.toString()).build()).execute();
        }

        @Override
        public void close() {
            client.dispatcher().executorService().shutdown();
            client.connectionPool().evictAll();
        }
    }

    /** Apache HttpClient 5 classic: closing a response whose entity was not consumed. */
    final class Apache implements UnreadCloser {
        private final CloseableHttpClient client = HttpClients.custom()
                .setConnectionManager(PoolingHttpClientConnectionManagerBuilder.create().build())
                .build();

        @Override
        public AutoCloseable open(URI uri) throws Exception {
            return client.executeOpen(null, new HttpGet(uri), null);
        }

        @Override
        public void close() throws Exception {
            client.close();
        }
    }

    /** The JDK's client, HTTP/1.1, body as an InputStream: closing that stream unread. */
    final class Jdk implements UnreadCloser {
        private final java.net.http.HttpClient client = java.net.http.HttpClient.newBuilder()
                .version(java.net.http.HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10))
                .build();

        @Override
        public AutoCloseable open(URI uri) throws Exception {
            HttpResponse<InputStream> response = client.send(java.net.http.HttpRequest.newBuilder(uri).build(),
                    HttpResponse.BodyHandlers.ofInputStream());
            return response.body();
        }

        @Override
        public void close() {
            client.close();
        }
    }
}
