package dev.shuttle.lab.busy;

import dev.shuttle.lab.servers.Protocol;
import dev.shuttle.lab.servers.ServerKind;
import java.time.Duration;
import java.util.List;

/**
 * Parameters of {@code lab busy}.
 *
 * @param duration    the measured window, or null for each scenario's default (60 s mostly idle, 20 s hot)
 * @param connections connections for mostly idle, or null for 5 000 (hot always uses 32 × 4)
 * @param generator   who loads the hot scenario: {@code auto} (when installed, h2load for h2c and wrk for http1),
 *                    {@code lab}, {@code h2load} (h2c only), {@code wrk} (http1 only) or {@code shuttle} (Shuttle's
 *                    own client, one per connection; h2c and http1)
 */
public record BusySettings(List<ServerKind> servers, List<BusyScenario> scenarios, Protocol protocol, int rounds,
                           Duration duration, Integer connections, String generator) {
    public BusySettings {
        servers = List.copyOf(servers);
        scenarios = List.copyOf(scenarios);
        if (rounds < 1) {
            throw new IllegalArgumentException("rounds must be at least 1");
        }
        if (connections != null && (connections < 1 || connections > 19_000)) {
            throw new IllegalArgumentException("connections must be in 1..19000: " + connections);
        }
        if (!List.of("auto", "lab", "h2load", "wrk", "shuttle").contains(generator)) {
            throw new IllegalArgumentException("unknown generator '" + generator
                    + "' (auto, lab, h2load, wrk, shuttle)");
        }
        if (generator.equals("h2load") && protocol != Protocol.H2C) {
            throw new IllegalArgumentException("--generator h2load works for h2c only, not " + protocol + " (its "
                    + "HTTP/1 parser rejects Tomcat's status line without a reason phrase)");
        }
        if (generator.equals("wrk") && protocol != Protocol.HTTP1) {
            throw new IllegalArgumentException("--generator wrk works for http1 only, not " + protocol);
        }
        if (generator.equals("shuttle") && protocol != Protocol.H2C && protocol != Protocol.HTTP1) {
            throw new IllegalArgumentException("--generator shuttle works over h2c and http1 only, not " + protocol);
        }
    }

    public Duration durationOf(BusyScenario scenario) {
        return duration != null ? duration : scenario.defaultDuration();
    }

    /** Connections of the scenario; hot over HTTP/1.1 opens one per stream. */
    public int connectionsOf(BusyScenario scenario) {
        if (scenario == BusyScenario.HOT) {
            return !protocol.isHttp2() ? scenario.defaultConnections() * (int) scenario.shape()
                    : scenario.defaultConnections();
        }
        return connections != null ? connections : scenario.defaultConnections();
    }

    /** Warm-up before the window: for mostly idle one interval, so every connection has woken once. */
    public Duration warmupOf(BusyScenario scenario) {
        return scenario.warmup();
    }
}
