package dev.shuttle.client.internal;

import dev.shuttle.client.ClientTrace;
import dev.shuttle.client.DrainPolicy;
import dev.shuttle.client.PoolConfig;
import dev.shuttle.wire.http1.Http1Limits;
import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * Everything {@code HttpClient.Builder} collected, for the internals. Timeouts are null when not set.
 */
public record ClientSettings(Duration connectTimeout, Duration responseHeaderTimeout, Duration readTimeout,
                             Duration callTimeout, PoolConfig pool, DrainPolicy drainPolicy, boolean keepAlive,
                             ClientTrace trace, Http1Limits limits, String userAgent, LongSupplier nanoClock) {

    /** A timeout in milliseconds for socket options: 0 (infinite) when none, at least 1 otherwise. */
    public static int millis(Duration timeout) {
        if (timeout == null) {
            return 0;
        }
        long ms = Math.max(1, timeout.toMillis());
        return (int) Math.min(Integer.MAX_VALUE, ms);
    }

    public static long nanos(Duration timeout) {
        if (timeout == null) {
            return Long.MAX_VALUE;
        }
        try {
            return timeout.toNanos();
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE;
        }
    }
}
