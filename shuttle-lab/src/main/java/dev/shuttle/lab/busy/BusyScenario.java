package dev.shuttle.lab.busy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Seed 001's two busy shapes.
 * <ul>
 *   <li>{@link #MOSTLY_IDLE}: 5 000 connections, each sending one request every 5 s at a random offset (about
 *       1 000 requests/s in all): every request wakes an idle connection, the case where parking pays its wake-up
 *       every time. The first interval is the warm-up.</li>
 *   <li>{@link #HOT}: 32 connections × 4 concurrent streams in a closed loop for 20 s, after a 3 s warm-up. Over
 *       HTTP/1.1, which has one request in flight per connection, that becomes 128 connections.</li>
 * </ul>
 */
public enum BusyScenario {
    MOSTLY_IDLE("mostly-idle", 5_000, 5_000, Duration.ofSeconds(5), Duration.ofSeconds(60)),
    HOT("hot", 32, 4, Duration.ofSeconds(3), Duration.ofSeconds(20));

    private final String cliName;
    private final int connections;
    private final long shape;
    private final Duration warmup;
    private final Duration duration;

    BusyScenario(String cliName, int connections, long shape, Duration warmup, Duration duration) {
        this.cliName = cliName;
        this.connections = connections;
        this.shape = shape;
        this.warmup = warmup;
        this.duration = duration;
    }

    public String cliName() {
        return cliName;
    }

    public int defaultConnections() {
        return connections;
    }

    /** Mostly idle: milliseconds between a connection's requests. Hot: streams in flight per connection. */
    public long shape() {
        return shape;
    }

    public Duration warmup() {
        return warmup;
    }

    public Duration defaultDuration() {
        return duration;
    }

    /** "mostly-idle", "hot", or "both". */
    public static List<BusyScenario> parseList(String text) {
        List<BusyScenario> scenarios = new ArrayList<>();
        for (String part : text.split(",")) {
            String name = part.trim().toLowerCase(Locale.ROOT);
            if (name.equals("both") || name.equals("all")) {
                return List.of(values());
            }
            boolean found = false;
            for (BusyScenario s : values()) {
                if (s.cliName.equals(name)) {
                    scenarios.add(s);
                    found = true;
                }
            }
            if (!found) {
                throw new IllegalArgumentException("unknown scenario '" + part + "' (known: mostly-idle, hot, both)");
            }
        }
        return scenarios;
    }
}
