package dev.shuttle.interop.crossrole;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.client.BodyPublisher;
import dev.shuttle.client.HttpClient;
import dev.shuttle.client.Request;
import dev.shuttle.client.Response;
import dev.shuttle.server.Http2Options;
import dev.shuttle.wire.HttpVersion;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Flow control between Shuttle's client and Shuttle's server, each side's windows filled by the other: the server
 * with the smallest windows it accepts, the client with its own (1 MiB per stream, 16 MiB per connection, not
 * configurable), so bodies larger than either window only arrive if each side hands credit back as it reads. Every
 * body is checked byte by byte; a lost credit shows as a call that stalls until its timeout.
 */
@Timeout(60)
class CrossRoleFlowControlTest {
    /** A 1 KiB stream window and the RFC's 65 535-octet connection window, the least the server takes. */
    private static final Http2Options TINY_WINDOWS = Http2Options.builder().initialWindowSize(1024)
            .connectionWindowSize(65_535).build();
    /** More than the client's connection window. */
    private static final int BEYOND_CLIENT_WINDOW = 20 << 20;

    private CrossRoleServer server;

    @AfterEach
    void stop() throws InterruptedException {
        if (server != null) {
            server.close();
        }
    }

    /** One call that opens the connection, after which the client has the server's SETTINGS. */
    private void warmUp(HttpClient client) throws Exception {
        try (Response warm = client.send(Request.get(server.url("/warm")))) {
            assertThat(warm.string()).isEqualTo("hello /warm");
        }
    }

    @ParameterizedTest(name = "tls={0}")
    @ValueSource(booleans = {false, true})
    void largeBodiesCrossTinyServerWindowsAndTheClientsWindowsBothWays(boolean tls) throws Exception {
        server = CrossRoleServer.start(tls, TINY_WINDOWS, Bodies::serve);
        byte[] upload = Bodies.body(3 << 20); // three thousand of the server's stream windows
        try (HttpClient client = server.client().build()) {
            warmUp(client); // the server's SETTINGS applied: see InitialWindowChangeTest for a body sent before
            try (Response response = client.send(Request.newBuilder(server.url("/echo"))
                    .POST(BodyPublisher.ofBytes(upload)).build())) {
                assertThat(response.version()).isEqualTo(HttpVersion.HTTP_2);
                assertThat(Bodies.readPattern(response.body())).isEqualTo(upload.length);
            }
            try (Response response = client.send(Request.get(server.url("/bytes/" + BEYOND_CLIENT_WINDOW)))) {
                assertThat(Bodies.readPattern(response.body())).isEqualTo(BEYOND_CLIENT_WINDOW);
            }
            assertThat(client.stats().connectionsOpened()).isEqualTo(1);
        }
        assertThat(server.connectionsOpened()).isEqualTo(1);
    }

    @Test
    void manyConcurrentStreamsShareASmallConnectionWindowEachWay() throws Exception {
        server = CrossRoleServer.start(false, Http2Options.builder().initialWindowSize(16 * 1024)
                .connectionWindowSize(65_535).build(), Bodies::serve);
        int streams = 40; // fewer than the server's 128 concurrent streams: one connection carries them all
        try (HttpClient client = server.client().build();
             ExecutorService callers = Executors.newVirtualThreadPerTaskExecutor()) {
            warmUp(client); // the connection exists before the burst
            byte[] upload = Bodies.body(256 * 1024); // 40 of them: 160 connection windows of the server
            List<Future<Long>> uploads = new ArrayList<>();
            List<Future<Long>> downloads = new ArrayList<>();
            for (int i = 0; i < streams; i++) {
                uploads.add(callers.submit(() -> {
                    try (Response response = client.send(Request.newBuilder(server.url("/echo"))
                            .POST(BodyPublisher.ofBytes(upload)).build())) {
                        return Bodies.readPattern(response.body());
                    }
                }));
                // 40 MiB at once: two and a half of the client's connection windows
                downloads.add(callers.submit(() -> {
                    try (Response response = client.send(Request.get(server.url("/bytes/" + (1 << 20))))) {
                        return Bodies.readPattern(response.body());
                    }
                }));
            }
            for (int i = 0; i < streams; i++) {
                assertThat(uploads.get(i).get(30, TimeUnit.SECONDS)).isEqualTo(upload.length);
                assertThat(downloads.get(i).get(30, TimeUnit.SECONDS)).isEqualTo(1 << 20);
            }
            assertThat(client.stats().connectionsOpened()).isEqualTo(1);
        }
        assertThat(server.connectionsOpened()).isEqualTo(1);
    }

    /**
     * Bodies closed unread after the server wrote them whole: together far more than the client's connection window,
     * so the next call would stall unless each close handed back the credit of what it dropped.
     */
    @Test
    void bodiesClosedUnreadKeepTheConnectionAndReturnTheirCredit() throws Exception {
        Semaphore written = new Semaphore(0);
        server = CrossRoleServer.start(false, (request, response) -> {
            if (request.path().startsWith("/unread/")) {
                int length = 900 * 1024; // under the client's stream window: the server sends it all at once
                response.contentLength(length);
                Bodies.writePattern(response.body(), length);
                response.flush();
                written.release();
            } else {
                Bodies.serve(request, response);
            }
        });
        try (HttpClient client = server.client().build()) {
            for (int i = 0; i < 40; i++) { // 36 MiB
                try (Response response = client.send(Request.get(server.url("/unread/" + i)))) {
                    assertThat(response.status()).isEqualTo(200);
                    assertThat(written.tryAcquire(CrossRoleServer.BOUND.toSeconds(), TimeUnit.SECONDS)).isTrue();
                }
            }
            try (Response response = client.send(Request.get(server.url("/bytes/" + BEYOND_CLIENT_WINDOW)))) {
                assertThat(Bodies.readPattern(response.body())).isEqualTo(BEYOND_CLIENT_WINDOW);
                assertThat(response.connection().reused()).isTrue();
            }
            assertThat(client.stats().connectionsOpened()).isEqualTo(1);
        }
        assertThat(server.connectionsOpened()).isEqualTo(1);
    }

    /**
     * The other way round: handlers answer without reading uploads that together far exceed the server's 65 535-octet
     * connection window, so the next upload would stall unless the server credited every octet it dropped.
     */
    @Test
    void uploadsAHandlerLeavesUnreadReturnTheirCreditToTheServersConnection() throws Exception {
        server = CrossRoleServer.start(false, Http2Options.builder().initialWindowSize(65_535)
                .connectionWindowSize(65_535).build(), (request, response) -> {
                    if (request.path().equals("/ignore")) {
                        response.send("ignored");
                    } else {
                        Bodies.serve(request, response);
                    }
                });
        byte[] upload = Bodies.body(60_000);
        try (HttpClient client = server.client().build()) {
            warmUp(client);
            for (int i = 0; i < 20; i++) { // 1.2 MB
                try (Response response = client.send(Request.newBuilder(server.url("/ignore"))
                        .POST(BodyPublisher.ofBytes(upload)).build())) {
                    assertThat(response.string()).isEqualTo("ignored");
                }
            }
            try (Response response = client.send(Request.newBuilder(server.url("/echo"))
                    .POST(BodyPublisher.ofBytes(upload)).build())) {
                assertThat(Bodies.readPattern(response.body())).isEqualTo(upload.length);
            }
            assertThat(client.stats().connectionsOpened()).isEqualTo(1);
        }
        assertThat(server.connectionsOpened()).isEqualTo(1);
    }
}
