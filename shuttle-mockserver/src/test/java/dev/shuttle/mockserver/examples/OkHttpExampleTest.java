package dev.shuttle.mockserver.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.mockserver.MockResponse;
import dev.shuttle.mockserver.MockServer;
import dev.shuttle.mockserver.ReuseAssertions;
import dev.shuttle.mockserver.junit.ShuttleMockServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import okhttp3.OkHttpClient;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.Response;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The README's example for OkHttp: bodies closed unread keep the connection; HTTP/2 multiplexes on one. */
@Timeout(60)
class OkHttpExampleTest {
    @Test
    void closingSmallBodiesUnreadKeepsOneConnection(@ShuttleMockServer MockServer server) throws Exception {
        server.enqueue(MockResponse.ofSize(2048));
        MockResponse small = MockResponse.ofSize(2048);
        OkHttpClient client = new OkHttpClient();
        try {
            for (int i = 0; i < 100; i++) {
                server.enqueue(small);
                try (Response response = client.newCall(new Request.Builder().url(server.url("/").toString()).build())
                        .execute()) {
                    assertThat(response.code()).isEqualTo(200); // status-only contract: the body stays unread
                }
            }
        } finally {
            client.connectionPool().evictAll();
            client.dispatcher().executorService().shutdown();
        }
        ReuseAssertions.assertReuse(server).requests(100).newConnectionsAtMost(1);
        assertThat(server.awaitConnectionsClosed(Duration.ofSeconds(10))).isTrue();
        // OkHttp discards an unread rest before reuse: it took every body's bytes, and nothing more.
        ReuseAssertions.assertReuse(server).bytesWrittenAtMost(100 * (2048 + 200));
    }

    @Test
    void http2MultiplexesConcurrentCallsOnOneConnection(@ShuttleMockServer(http2 = true) MockServer server)
            throws Exception {
        MockResponse slow = MockResponse.builder().bodyOfSize(1024).headDelay(Duration.ofMillis(50)).build();
        for (int i = 0; i < 21; i++) {
            server.enqueue(slow);
        }
        OkHttpClient client = new OkHttpClient.Builder().protocols(List.of(Protocol.H2_PRIOR_KNOWLEDGE)).build();
        // One call first: calls that all start before any connection exists each dial their own (20 connections
        // for 20 calls, which this test caught); once one is up, OkHttp multiplexes onto it.
        try (Response first = client.newCall(new Request.Builder().url(server.url("/").toString()).build())
                .execute()) {
            assertThat(first.protocol()).isEqualTo(Protocol.H2_PRIOR_KNOWLEDGE);
        }
        try (ExecutorService callers = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<Protocol>> calls = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                Callable<Protocol> call = () -> {
                    try (Response response = client.newCall(new Request.Builder().url(server.url("/").toString())
                            .build()).execute()) {
                        assertThat(response.body().bytes()).hasSize(1024);
                        return response.protocol();
                    }
                };
                calls.add(callers.submit(call));
            }
            for (Future<Protocol> call : calls) {
                assertThat(call.get()).isEqualTo(Protocol.H2_PRIOR_KNOWLEDGE);
            }
        } finally {
            client.connectionPool().evictAll();
            client.dispatcher().executorService().shutdown();
        }
        ReuseAssertions.assertReuse(server).requests(21).newConnections(1);
        assertThat(server.stats().perConnection()).singleElement()
                .satisfies(c -> assertThat(c.requests()).isEqualTo(21));
        assertThat(server.awaitConnectionsClosed(Duration.ofSeconds(10))).isTrue();
        assertThat(server.bytesWritten()).isGreaterThan(21 * 1024); // HTTP/2 frames count too
    }
}
