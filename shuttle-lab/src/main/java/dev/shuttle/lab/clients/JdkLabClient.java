package dev.shuttle.lab.clients;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.net.ProxySelector;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * {@code java.net.http.HttpClient}, HTTP/1.1 forced (over https as well), or when asked HTTP/2 (over https only: ALPN
 * h2; the client has no h2c prior knowledge). The body is taken as an {@link InputStream} and closed, which the
 * {@code BodyHandlers.ofInputStream} documentation gives as the way to release a body the caller does not read; over
 * HTTP/2 that resets the stream. It is also the only way to cancel a call whose body is being read (its future is
 * done by then). It decodes no gzip. The client has no connection hook, so {@link #connectionsOpened()} stays
 * unknown.
 */
final class JdkLabClient implements LabClient {
    private final HttpClient client;
    private final Duration requestTimeout;
    private final HttpClient.Version version;

    JdkLabClient(ClientOptions options) {
        // HTTP/1.1 over TLS too: ALPN then offers http/1.1 alone
        this.version = options.http2() ? HttpClient.Version.HTTP_2 : HttpClient.Version.HTTP_1_1;
        HttpClient.Builder builder = HttpClient.newBuilder()
                .version(version)
                .connectTimeout(options.connectTimeout());
        if (options.followRedirects()) {
            builder.followRedirects(HttpClient.Redirect.NORMAL); // the JDK client follows none by default
        }
        if (options.proxy() != null) {
            builder.proxy(ProxySelector.of(options.proxy()));
        }
        if (options.trust() != null) {
            // Host names are checked by the trust manager (endpoint identification), so --insecure's trust-all
            // manager turns that off as well; the JDK client has no other switch short of a system property.
            builder.sslContext(options.trust().newContext());
        }
        this.client = builder.build();
        this.requestTimeout = options.requestTimeout();
    }

    @Override
    public ClientKind kind() {
        return ClientKind.JDK;
    }

    @Override
    public CallResult call(URI uri, BodyUse use) throws IOException {
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(requestTimeout).GET().build();
        HttpResponse<InputStream> response;
        try {
            response = client.send(request, HttpResponse.BodyHandlers.ofInputStream());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for " + uri);
        }
        try (InputStream body = response.body()) {
            if (response.version() != version) {
                throw new IOException("the JDK client spoke " + response.version() + ", not " + version);
            }
            return new CallResult(response.statusCode(), BodyConsumer.consume(body, use));
        }
    }

    @Override
    public void close() {
        client.shutdownNow();
        try {
            client.awaitTermination(Duration.ofSeconds(2));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
