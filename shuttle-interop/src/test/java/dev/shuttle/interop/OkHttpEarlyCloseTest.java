package dev.shuttle.interop;

import java.util.List;
import java.util.stream.Stream;
import okhttp3.OkHttpClient;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.Response;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * OkHttp 5 over h2c (prior knowledge) and h2 (ALPN), closing each {@link Response} unread as its documentation
 * says: OkHttp resets the stream with CANCEL and returns the unread data's flow-control credit.
 */
@Timeout(60)
class OkHttpEarlyCloseTest {
    static Stream<Arguments> cases() {
        return Workload.overEachTransport(Transport.H2C, Transport.TLS);
    }

    @ParameterizedTest(name = "{0}, {1}")
    @MethodSource("cases")
    void keepsOneConnection(Transport transport, Workload workload) throws Exception {
        try (InteropServer server = InteropServer.start(transport)) {
            OkHttpClient.Builder builder = new OkHttpClient.Builder().retryOnConnectionFailure(false);
            if (transport == Transport.H2C) {
                builder.protocols(List.of(Protocol.H2_PRIOR_KNOWLEDGE));
            } else {
                builder.protocols(List.of(Protocol.HTTP_2, Protocol.HTTP_1_1))
                        .sslSocketFactory(InteropServer.clientContext().getSocketFactory(),
                                InteropServer.trustManager());
            }
            OkHttpClient client = builder.build();
            ClientRun run;
            try {
                run = JvmDriver.run(workload, server.url(workload.bodyBytes()), uri -> {
                    try (Response response = client.newCall(new Request.Builder().url(uri.toString()).build())
                            .execute()) {
                        return response.protocol() == Protocol.HTTP_2
                                || response.protocol() == Protocol.H2_PRIOR_KNOWLEDGE ? response.code() : -1;
                    }
                });
            } finally {
                client.dispatcher().executorService().shutdown();
                client.connectionPool().evictAll();
            }
            server.assertEarlyCloseContract("OkHttp", workload, run);
        }
    }
}
