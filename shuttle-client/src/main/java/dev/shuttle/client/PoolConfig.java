package dev.shuttle.client;

import java.time.Duration;
import java.util.Objects;

/**
 * Connection pool limits. All defaults are valid; see each builder option for its default and why.
 *
 * @param maxIdlePerHost  idle connections kept per origin, or {@link #ADAPTIVE} (the default): up to the recent peak
 *                        concurrency of that origin, decaying to zero over {@code idleTimeout}
 * @param maxIdleTotal    idle connections kept across all origins; the least recently used go first
 * @param maxConnsPerHost connections per origin (idle, active, dialing and draining); requests beyond it wait in FIFO
 *                        order
 * @param idleTimeout     an idle connection unused for this long is closed
 */
public record PoolConfig(int maxIdlePerHost, int maxIdleTotal, int maxConnsPerHost, Duration idleTimeout) {
    /** {@link #maxIdlePerHost()} value for "size from the recent peak concurrency". */
    public static final int ADAPTIVE = -1;

    /**
     * Checks the limits: {@code maxIdlePerHost} is {@link #ADAPTIVE} or more, {@code maxIdleTotal} 0 or more, {@code
     * maxConnsPerHost} more than 0, and {@code idleTimeout} positive.
     */
    public PoolConfig {
        Objects.requireNonNull(idleTimeout, "idleTimeout");
        if (maxIdlePerHost < ADAPTIVE || maxIdleTotal < 0 || maxConnsPerHost <= 0) {
            throw new IllegalArgumentException("invalid pool limits: " + maxIdlePerHost + ", " + maxIdleTotal + ", "
                    + maxConnsPerHost);
        }
        if (idleTimeout.isNegative() || idleTimeout.isZero()) {
            throw new IllegalArgumentException("idleTimeout must be positive: " + idleTimeout);
        }
    }

    /**
     * {@return the default pool: adaptive idle connections per origin, 256 idle in all, no connection limit, 90 s idle
     * timeout}
     */
    public static PoolConfig defaults() {
        return builder().build();
    }

    /** {@return a builder starting from the defaults} */
    public static Builder builder() {
        return new Builder();
    }

    /** {@return whether idle connections per origin follow the recent peak ({@link #ADAPTIVE})} */
    public boolean adaptiveIdle() {
        return maxIdlePerHost == ADAPTIVE;
    }

    /** Hand-written builder; every option has a working default. */
    public static final class Builder {
        private int maxIdlePerHost = ADAPTIVE;
        private int maxIdleTotal = 256;
        private int maxConnsPerHost = Integer.MAX_VALUE;
        private Duration idleTimeout = Duration.ofSeconds(90);

        private Builder() {
        }

        /**
         * Default {@link PoolConfig#ADAPTIVE}: keep as many idle connections as the origin recently needed at once.
         * A fixed number (Go's default is 2) makes every burst wider than it re-dial the difference (seed 003: 28
         * new connections per burst of 30); the peak decays over the idle timeout, so a quiet origin drops to zero.
         * 0 disables idle pooling for every origin.
         *
         * @param maxIdlePerHost idle connections kept per origin, or {@link PoolConfig#ADAPTIVE}
         * @return this builder
         */
        public Builder maxIdlePerHost(int maxIdlePerHost) {
            this.maxIdlePerHost = maxIdlePerHost;
            return this;
        }

        /**
         * Default 256: an idle connection costs a socket and a few hundred bytes here (no thread, no buffer), but a
         * file descriptor and memory at the server; 256 covers wide bursts to a handful of origins.
         *
         * @param maxIdleTotal idle connections kept in all
         * @return this builder
         */
        public Builder maxIdleTotal(int maxIdleTotal) {
            this.maxIdleTotal = maxIdleTotal;
            return this;
        }

        /**
         * Default unlimited, as in Go and the JDK: a limit makes callers queue, which surprises more often than it
         * protects. Set it to shield a fragile server; waiting requests are served in FIFO order and take the first
         * connection that frees up.
         *
         * @param maxConnsPerHost connections per origin, idle, active, dialing and draining; more than 0
         * @return this builder
         */
        public Builder maxConnsPerHost(int maxConnsPerHost) {
            this.maxConnsPerHost = maxConnsPerHost;
            return this;
        }

        /**
         * Default 90 s, as Go's DefaultTransport: longer than most servers' keep-alive would risk reusing connections
         * the server is closing (the retry rule covers that race), shorter wastes dials between bursts.
         *
         * @param idleTimeout how long an idle connection is kept
         * @return this builder
         */
        public Builder idleTimeout(Duration idleTimeout) {
            this.idleTimeout = idleTimeout;
            return this;
        }

        /** {@return the configuration} */
        public PoolConfig build() {
            return new PoolConfig(maxIdlePerHost, maxIdleTotal, maxConnsPerHost, idleTimeout);
        }
    }
}
