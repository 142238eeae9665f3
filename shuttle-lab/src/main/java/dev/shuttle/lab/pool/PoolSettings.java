package dev.shuttle.lab.pool;

import dev.shuttle.lab.clients.ClientKind;
import java.time.Duration;
import java.util.List;

/**
 * Parameters of {@code lab pool} (seed 003's pool experiments).
 *
 * @param clients        clients measured; default every client except shuttle-bounded and shuttle-none, whose pool
 *                       is Shuttle's default pool again
 * @param bursts         bursts per client; default 5, as seed 003
 * @param concurrency    calls per burst, all started together; default 30, as seed 003
 * @param holdMillis     the fixture holds each burst response this long, so a burst's calls really overlap even on a
 *                       busy machine; 50 ms
 * @param pauseBetween   pause between bursts, so every connection is back in the pool; default 200 ms
 * @param perCallCalls   calls of the per-call-client case; default 100, as seed 003
 * @param settle         wait after the per-call calls before counting open connections, so background drains end;
 *                       default 300 ms (six times the drain time cap)
 * @param dialDelay      simulated handshake per new connection; default 0
 */
public record PoolSettings(List<ClientKind> clients, int bursts, int concurrency, long holdMillis,
                           Duration pauseBetween, int perCallCalls, Duration settle, Duration dialDelay) {

    public PoolSettings {
        clients = List.copyOf(clients);
        if (clients.isEmpty() || bursts < 1 || concurrency < 1 || perCallCalls < 0 || holdMillis < 0) {
            throw new IllegalArgumentException("invalid pool settings");
        }
    }

    public static List<ClientKind> defaultClients() {
        return List.of(ClientKind.SHUTTLE, ClientKind.JDK, ClientKind.OKHTTP, ClientKind.APACHE, ClientKind.JETTY);
    }

    public static PoolSettings defaults(List<ClientKind> clients, Duration dialDelay) {
        return new PoolSettings(clients, 5, 30, 50, Duration.ofMillis(200), 100, Duration.ofMillis(300), dialDelay);
    }

    /** Calls the whole run makes: the progress bar's 100 %. */
    public long totalCalls() {
        return (long) PoolSubject.forClients(clients).size() * (bursts * concurrency + perCallCalls);
    }
}
