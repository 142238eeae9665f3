package dev.shuttle.lab.clients;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.URI;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import okhttp3.Call;
import okhttp3.EventListener;
import okhttp3.OkHttpClient;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.Response;

/**
 * OkHttp 5 with its default pool (5 idle connections, 5 minutes). The response is closed with
 * {@link Response#close()}, as OkHttp's documentation requires; over HTTP/1.1 OkHttp then discards the rest of the
 * body on the caller's thread for up to 100 ms, over HTTP/2 it resets the stream. HTTP/2 when asked: prior knowledge
 * ({@code H2_PRIOR_KNOWLEDGE}) on http, ALPN h2 on https.
 */
final class OkHttpLabClient implements LabClient {
    private final OkHttpClient client;
    private final boolean http2;
    private final AtomicLong connectsStarted = new AtomicLong();

    OkHttpLabClient(ClientOptions options) {
        OkHttpClient.Builder builder = new OkHttpClient.Builder();
        if (options.trust() != null) {
            builder.sslSocketFactory(options.trust().newContext().getSocketFactory(), options.trust().trustManager());
            if (!options.trust().verifiesHostnames()) {
                builder.hostnameVerifier((host, session) -> true); // OkHttp checks names after the handshake
            }
        }
        if (options.proxy() != null) {
            builder.proxy(new Proxy(Proxy.Type.HTTP, options.proxy()));
        }
        this.http2 = options.http2();
        // HTTP/1.1: over TLS ALPN offers http/1.1 alone. HTTP/2 over TLS: OkHttp insists on http/1.1 in the offer,
        // and the fixture picks h2; a response over HTTP/1.1 would then fail the call below.
        List<Protocol> protocols = !http2 ? List.of(Protocol.HTTP_1_1)
                : options.trust() == null ? List.of(Protocol.H2_PRIOR_KNOWLEDGE)
                : List.of(Protocol.HTTP_2, Protocol.HTTP_1_1);
        this.client = builder
                .protocols(protocols)
                .connectTimeout(options.connectTimeout())
                .readTimeout(options.requestTimeout())
                .retryOnConnectionFailure(true)
                .eventListener(new EventListener() {
                    @Override
                    public void connectStart(Call call, InetSocketAddress address, Proxy proxy) {
                        connectsStarted.incrementAndGet();
                    }
                })
                .build();
    }

    @Override
    public ClientKind kind() {
        return ClientKind.OKHTTP;
    }

    @Override
    public CallResult call(URI uri, BodyUse use) throws IOException {
        Request request = new Request.Builder().url(uri.toString()).get().build();
        Call call = client.newCall(request);
        try (Response response = call.execute()) {
            if (http2 && response.protocol() != Protocol.HTTP_2 && response.protocol() != Protocol.H2_PRIOR_KNOWLEDGE) {
                throw new IOException("OkHttp spoke " + response.protocol() + ", not HTTP/2");
            }
            long read = 0;
            if (use != BodyUse.CLOSE_UNREAD) {
                InputStream body = response.body().byteStream();
                read = BodyConsumer.consume(body, use);
            }
            if (use == BodyUse.CANCEL_MID_BODY) {
                call.cancel(); // OkHttp's way: from any thread, at any point of the call
            }
            return new CallResult(response.code(), read);
        }
    }

    @Override
    public long connectionsOpened() {
        return connectsStarted.get();
    }

    @Override
    public void close() {
        client.dispatcher().executorService().shutdown();
        client.connectionPool().evictAll();
    }
}
