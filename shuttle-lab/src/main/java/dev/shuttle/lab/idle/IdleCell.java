package dev.shuttle.lab.idle;

import dev.shuttle.lab.servers.ServerKind;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * One server at one connection count over all rounds: every figure is the median of the rounds' figures, and each
 * per-connection figure is the median of the rounds' own deltas (each round against its own baseline).
 */
public record IdleCell(ServerKind server, int connections, List<IdleRound> rounds) {
    public IdleCell {
        rounds = List.copyOf(rounds);
        if (rounds.isEmpty()) {
            throw new IllegalArgumentException("a cell needs at least one round");
        }
    }

    public long rssBytes() {
        return SampleMath.medianOf(rounds, r -> r.loaded().rssBytes());
    }

    public long liveHeapBytes() {
        return SampleMath.medianOf(rounds, r -> r.loaded().liveHeapBytes());
    }

    public long osThreads() {
        return SampleMath.medianOf(rounds, r -> r.loaded().osThreads());
    }

    public long virtualThreads() {
        return SampleMath.medianOf(rounds, r -> r.loaded().virtualThreads());
    }

    public long baselineRssBytes() {
        return SampleMath.medianOf(rounds, r -> r.baseline().rssBytes());
    }

    public long baselineLiveHeapBytes() {
        return SampleMath.medianOf(rounds, r -> r.baseline().liveHeapBytes());
    }

    public long baselineThreads() {
        return SampleMath.medianOf(rounds, r -> r.baseline().threads());
    }

    public double rssPerConnection() {
        return median(IdleRound::rssPerConnection);
    }

    public double heapPerConnection() {
        return median(IdleRound::heapPerConnection);
    }

    public double threadsPerConnection() {
        return median(IdleRound::threadsPerConnection);
    }

    /** Connections the holder could not open or the server closed, summed over rounds: should be 0. */
    public int lostConnections() {
        int lost = 0;
        for (IdleRound r : rounds) {
            lost += Math.max(0, r.connections() + 1 - r.heldAtEnd());
        }
        return lost;
    }

    public String firstError() {
        return rounds.stream().map(IdleRound::firstError).filter(e -> e != null).findFirst().orElse(null);
    }

    private double median(ToDoubleFunction<IdleRound> figure) {
        List<Double> values = new ArrayList<>();
        for (IdleRound r : rounds) {
            values.add(figure.applyAsDouble(r));
        }
        return SampleMath.medianOfDoubles(values);
    }
}
