package dev.shuttle.lab.clients;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.URI;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClientBuilder;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.ManagedHttpClientConnectionFactory;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.client5.http.io.ManagedHttpClientConnection;
import org.apache.hc.client5.http.ssl.DefaultClientTlsStrategy;
import org.apache.hc.client5.http.ssl.HostnameVerificationPolicy;
import org.apache.hc.client5.http.ssl.NoopHostnameVerifier;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.http.io.HttpConnectionFactory;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.util.Timeout;

/**
 * Apache HttpClient 5 classic with its default pool (5 connections per route, 25 in total). Calls go through
 * {@code execute(request, responseHandler)}, the API its documentation recommends: the client consumes whatever
 * entity the handler leaves unread, so "closing unread" here means draining the whole body on the caller's thread.
 */
final class ApacheLabClient implements LabClient {
    private final CloseableHttpClient client;
    private final AtomicLong connectionsCreated = new AtomicLong();

    ApacheLabClient(ClientOptions options) {
        HttpConnectionFactory<ManagedHttpClientConnection> counting = new HttpConnectionFactory<>() {
            @Override
            public ManagedHttpClientConnection createConnection(Socket socket) throws IOException {
                connectionsCreated.incrementAndGet();
                return ManagedHttpClientConnectionFactory.INSTANCE.createConnection(socket);
            }
        };
        ConnectionConfig connectionConfig = ConnectionConfig.custom()
                .setConnectTimeout(Timeout.of(options.connectTimeout()))
                .setSocketTimeout(Timeout.of(options.requestTimeout()))
                .build();
        PoolingHttpClientConnectionManagerBuilder manager = PoolingHttpClientConnectionManagerBuilder.create()
                .setConnectionFactory(counting)
                .setDefaultConnectionConfig(connectionConfig);
        if (options.trust() != null) {
            // The classic client speaks HTTP/1.1 only. With --insecure, its own host-name check goes too.
            manager.setTlsSocketStrategy(options.trust().verifiesHostnames()
                    ? new DefaultClientTlsStrategy(options.trust().newContext())
                    : new DefaultClientTlsStrategy(options.trust().newContext(), HostnameVerificationPolicy.CLIENT,
                            NoopHostnameVerifier.INSTANCE));
        }
        HttpClientBuilder builder = HttpClients.custom();
        if (options.proxy() != null) {
            builder.setProxy(new HttpHost("http", options.proxy().getHostString(), options.proxy().getPort()));
        }
        this.client = builder
                .setConnectionManager(manager.build())
                .setDefaultRequestConfig(RequestConfig.custom()
                        .setResponseTimeout(Timeout.of(options.requestTimeout()))
                        .build())
                .build();
    }

    @Override
    public ClientKind kind() {
        return ClientKind.APACHE;
    }

    @Override
    public CallResult call(URI uri, BodyUse use) throws IOException {
        HttpGet get = new HttpGet(uri);
        return client.execute(get, response -> {
            HttpEntity entity = response.getEntity();
            long read = 0;
            if (use == BodyUse.CANCEL_MID_BODY && entity != null) {
                read = BodyConsumer.consume(entity.getContent(), use);
                get.cancel(); // the classic client's way: the request is a Cancellable
                return new CallResult(response.getCode(), read);
            }
            if (use != BodyUse.CLOSE_UNREAD && entity != null) {
                try (InputStream body = entity.getContent()) {
                    read = BodyConsumer.consume(body, use);
                }
            }
            return new CallResult(response.getCode(), read);
        });
    }

    @Override
    public long connectionsOpened() {
        return connectionsCreated.get();
    }

    @Override
    public void close() {
        client.close(CloseMode.IMMEDIATE);
    }

}
