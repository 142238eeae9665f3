package dev.shuttle.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.client.testing.FixtureServer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.Future;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;

/**
 * Seed 003's bursts: 5 bursts of 30 concurrent calls. The server holds every call of a burst until all 30 arrived
 * (a barrier), so each burst really needs 30 connections at once. Go's default (2 idle per host) re-dials 28 per
 * burst; Shuttle's adaptive idle sizing re-dials none.
 */
class PoolSizingTest {
    private static final int WIDTH = 30;
    private static final int BURSTS = 5;

    @Test
    void adaptiveIdleSizingRedialsNothingAfterTheFirstBurst() throws Exception {
        List<Long> perBurst = bursts(PoolConfig.defaults());
        System.out.println("BURSTS adaptive: new connections per burst " + perBurst);
        assertThat(perBurst.get(0)).isEqualTo(WIDTH);
        assertThat(perBurst.subList(1, BURSTS)).containsOnly(0L);
    }

    @Test
    void twoIdlePerHostRedialsTheRestOfEveryBurstAsGoDoes() throws Exception {
        List<Long> perBurst = bursts(PoolConfig.builder().maxIdlePerHost(2).build());
        System.out.println("BURSTS maxIdlePerHost=2: new connections per burst " + perBurst);
        assertThat(perBurst.get(0)).isEqualTo(WIDTH);
        assertThat(perBurst.subList(1, BURSTS)).containsOnly((long) WIDTH - 2);
    }

    @Test
    void maxConnsPerHostQueuesTheRestInFifoOrder() throws Exception {
        try (FixtureServer server = new FixtureServer();
             HttpClient client = HttpClient.builder().pool(PoolConfig.builder().maxConnsPerHost(3).build()).build();
             ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<Integer>> calls = new ArrayList<>();
            for (int i = 0; i < 12; i++) {
                calls.add(threads.submit(() -> {
                    try (Response response = client.send(Request.get(server.uri("/slow-head/20")))) {
                        response.discard();
                        return response.status();
                    }
                }));
            }
            for (Future<Integer> call : calls) {
                assertThat(call.get()).isEqualTo(200);
            }
            ClientInternals.awaitSettled(client);
            assertThat(server.newConnections()).isEqualTo(3);
            assertThat(server.maxConcurrentRequests()).isLessThanOrEqualTo(3);
            assertThat(client.stats().requests()).isEqualTo(12);
        }
    }

    private static List<Long> bursts(PoolConfig pool) throws Exception {
        List<Long> perBurst = new ArrayList<>();
        try (FixtureServer server = new FixtureServer();
             HttpClient client = HttpClient.builder().pool(pool).build();
             ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int burst = 0; burst < BURSTS; burst++) {
                server.barrier(new CyclicBarrier(WIDTH));
                long before = server.newConnections();
                List<Future<Integer>> calls = new ArrayList<>();
                for (int i = 0; i < WIDTH; i++) {
                    calls.add(threads.submit(() -> {
                        try (Response response = client.send(Request.get(server.uri("/barrier")))) {
                            response.discard();
                            return response.status();
                        }
                    }));
                }
                for (Future<Integer> call : calls) {
                    assertThat(call.get()).isEqualTo(200);
                }
                ClientInternals.awaitSettled(client);
                perBurst.add(server.newConnections() - before);
            }
        }
        return perBurst;
    }
}
