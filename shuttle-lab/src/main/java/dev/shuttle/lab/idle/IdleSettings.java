package dev.shuttle.lab.idle;

import dev.shuttle.lab.servers.Protocol;
import dev.shuttle.lab.servers.ServerKind;
import java.time.Duration;
import java.util.List;

/**
 * Parameters of {@code lab idle}. Defaults follow seed 001: 1 000, 5 000 and 10 000 connections, a fresh server
 * per round, 5 s to settle and 5 samples 1 s apart; 3 rounds rather than the seed's 5, to keep a full run of seven
 * servers within the hour.
 *
 * @param baselineSamples samples of the server before the connections (one warm-up connection held)
 * @param interval        time from the start of one sample to the start of the next
 */
public record IdleSettings(List<ServerKind> servers, List<Integer> connectionCounts, Protocol protocol, int rounds,
                           Duration settle, int samples, int baselineSamples, Duration interval) {
    public static final List<Integer> DEFAULT_COUNTS = List.of(1_000, 5_000, 10_000);
    /** Per process: 20 000 open files here, and the holder needs one per connection plus a few. */
    public static final int MAX_CONNECTIONS = 19_000;

    public IdleSettings {
        servers = List.copyOf(servers);
        connectionCounts = List.copyOf(connectionCounts);
        if (servers.isEmpty() || connectionCounts.isEmpty()) {
            throw new IllegalArgumentException("need at least one server and one connection count");
        }
        for (int count : connectionCounts) {
            if (count < 1 || count > MAX_CONNECTIONS) {
                throw new IllegalArgumentException("connections must be in 1.." + MAX_CONNECTIONS + ": " + count);
            }
        }
        if (rounds < 1 || samples < 1 || baselineSamples < 1) {
            throw new IllegalArgumentException("rounds and samples must be at least 1");
        }
    }

    public static IdleSettings defaults(List<ServerKind> servers, List<Integer> counts, Protocol protocol,
                                        int rounds) {
        return new IdleSettings(servers, counts, protocol, rounds, Duration.ofSeconds(5), 5, 3,
                Duration.ofSeconds(1));
    }

    public IdleSettings withTiming(Duration settle, int samples, int baselineSamples, Duration interval) {
        return new IdleSettings(servers, connectionCounts, protocol, rounds, settle, samples, baselineSamples,
                interval);
    }
}
