package dev.shuttle.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class WriteWatchdogTest {
    private static final class FakeWriter implements WriteWatchdog.Watched {
        long started = Transport.NOT_WRITING;
        int aborts;

        @Override
        public long writeStartedNanos() {
            return started;
        }

        @Override
        public void abortWrite() {
            aborts++;
        }
    }

    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    @Test
    void abortsOnlyWritesOlderThanTheTimeout() {
        FakeWriter idle = new FakeWriter();
        FakeWriter recent = new FakeWriter();
        FakeWriter stuck = new FakeWriter();
        recent.started = 100 * SECOND - SECOND / 2;
        stuck.started = 100 * SECOND - 31 * SECOND;
        try (WriteWatchdog watchdog = new WriteWatchdog(Duration.ofSeconds(30), () -> 0,
                () -> List.of(idle, recent, stuck))) {
            assertThat(watchdog.sweep(100 * SECOND)).isEqualTo(1);
        }
        assertThat(stuck.aborts).isEqualTo(1);
        assertThat(idle.aborts + recent.aborts).isZero();
    }

    @Test
    void writeExactlyAtTheTimeoutIsLeftAlone() {
        FakeWriter writer = new FakeWriter();
        writer.started = 0;
        try (WriteWatchdog watchdog = new WriteWatchdog(Duration.ofSeconds(1), () -> 0, () -> List.of(writer))) {
            assertThat(watchdog.sweep(SECOND)).isZero();
            assertThat(watchdog.sweep(SECOND + 1)).isEqualTo(1);
        }
    }

    @Test
    void sweepPeriodIsAQuarterOfTheTimeoutWithinBounds() {
        assertThat(WriteWatchdog.periodNanos(TimeUnit.SECONDS.toNanos(30))).isEqualTo(SECOND);
        assertThat(WriteWatchdog.periodNanos(TimeUnit.MILLISECONDS.toNanos(400)))
                .isEqualTo(TimeUnit.MILLISECONDS.toNanos(100));
        assertThat(WriteWatchdog.periodNanos(TimeUnit.MILLISECONDS.toNanos(1)))
                .isEqualTo(TimeUnit.MILLISECONDS.toNanos(10));
    }
}
