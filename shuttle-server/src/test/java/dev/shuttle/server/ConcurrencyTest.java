package dev.shuttle.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.server.RawConnection.RawResponse;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Many connections at once, each parking and waking between requests of mixed shapes: every response must match its
 * request, and the counters must add up. Shakes out races in the park/unpark hand-off.
 */
class ConcurrencyTest {
    private static final int CLIENTS = 32;
    private static final int REQUESTS_EACH = 60;

    @Test
    void concurrentKeepAliveClientsGetTheirOwnAnswers() throws Exception {
        RecordingListener listener = new RecordingListener();
        try (HttpServer server = HttpServer.builder()
                .connectionListener(listener)
                .handler((request, response) -> {
                    byte[] body = request.bodyBytes();
                    int size = Integer.parseInt(request.query());
                    OutputStream out = response.header("X-Path", request.path()).body();
                    out.write(body);
                    byte[] filler = new byte[size];
                    Arrays.fill(filler, (byte) 'f');
                    out.write(filler);
                })
                .start();
             ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<Integer>> results = new ArrayList<>();
            AtomicInteger sent = new AtomicInteger();
            for (int c = 0; c < CLIENTS; c++) {
                int client = c;
                results.add(clients.submit(() -> {
                    Random random = new Random(client);
                    try (RawConnection connection = new RawConnection(server)) {
                        for (int i = 0; i < REQUESTS_EACH; i++) {
                            String path = "/c" + client + "/r" + i;
                            int filler = random.nextInt(3) == 0 ? random.nextInt(40_000) : random.nextInt(100);
                            String payload = "p".repeat(random.nextInt(2000));
                            boolean pipelined = random.nextInt(4) == 0;
                            String request = "POST " + path + "?" + filler + " HTTP/1.1\r\nHost: t\r\nContent-Length: "
                                    + payload.length() + "\r\n\r\n" + payload;
                            connection.send(pipelined ? request + request : request);
                            sent.addAndGet(pipelined ? 2 : 1);
                            for (int copy = 0; copy < (pipelined ? 2 : 1); copy++) {
                                RawResponse response = connection.readResponse();
                                assertThat(response.header("X-Path")).isEqualTo(path);
                                assertThat(response.body()).hasSize(payload.length() + filler);
                            }
                        }
                    }
                    return client;
                }));
            }
            for (Future<Integer> result : results) {
                result.get(60, TimeUnit.SECONDS);
            }
            listener.awaitCount(ConnectionState.CLOSED, CLIENTS);
            ServerStats stats = server.stats();
            assertThat(stats.accepted()).isEqualTo(CLIENTS);
            assertThat(stats.requests()).isEqualTo(sent.get());
            assertThat(stats.open()).isZero();
            assertThat(listener.count(ConnectionState.NEW)).isEqualTo(CLIENTS);
        }
    }
}
