package dev.shuttle.lab.busy;

import dev.shuttle.lab.idle.SampleMath;
import dev.shuttle.lab.servers.ServerKind;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;

/** One server under one scenario: each figure is the median of the rounds' figures; errors are summed. */
public record BusyCell(ServerKind server, BusyScenario scenario, List<BusyMeasurement> rounds) {
    public BusyCell {
        rounds = List.copyOf(rounds);
    }

    public double requestsPerSecond() {
        return median(m -> m.load().requestsPerSecond());
    }

    public double p50Micros() {
        return median(m -> m.load().p50Micros());
    }

    public double p99Micros() {
        return median(m -> m.load().p99Micros());
    }

    public double p999Micros() {
        return median(m -> m.load().p999Micros());
    }

    public double cpuCores() {
        return median(BusyMeasurement::cpuCores);
    }

    public double cpuMicrosPerRequest() {
        return median(BusyMeasurement::cpuMicrosPerRequest);
    }

    public double rssBytes() {
        return median(m -> m.rssBytes());
    }

    public double rssGrowthBytes() {
        return median(m -> m.rssGrowthBytes());
    }

    public double liveHeapBytes() {
        return median(m -> m.liveHeapBytes());
    }

    public double baselineLiveHeapBytes() {
        return median(m -> m.baseline().liveHeapBytes());
    }

    /**
     * {@code figure} of this cell relative to {@code other}'s, as seed 001 puts parking on against off: -0.27 is
     * 27 % less. NaN when the other's figure is 0.
     */
    public static double relative(double figure, double other) {
        return other == 0 ? Double.NaN : figure / other - 1;
    }

    public long errors() {
        return rounds.stream().mapToLong(m -> m.load().errors()).sum();
    }

    public int connections() {
        return rounds.getFirst().load().connections();
    }

    public String generator() {
        return rounds.getFirst().load().generator();
    }

    public String firstError() {
        return rounds.stream().map(m -> m.load().firstError()).filter(e -> e != null).findFirst().orElse(null);
    }

    private double median(ToDoubleFunction<BusyMeasurement> figure) {
        List<Double> values = new ArrayList<>();
        rounds.forEach(m -> values.add(figure.applyAsDouble(m)));
        return SampleMath.medianOfDoubles(values);
    }
}
