package dev.shuttle.server;

/**
 * HTTP/2 on the server: whether it is offered, and the limits it announces. {@link #defaults()} is valid; each builder
 * option states its default and where it comes from. Limits not listed here follow the wire module's server defaults
 * (16 KiB header lists, 4096-octet HPACK tables, 32 CONTINUATION frames per block).
 *
 * @param enabled              HTTP/2 at all: ALPN {@code h2} over TLS, and, with {@code cleartext}, h2c
 * @param cleartext            h2c: HTTP/2 with prior knowledge on a plaintext port, and {@code Upgrade: h2c}
 * @param maxConcurrentStreams SETTINGS_MAX_CONCURRENT_STREAMS: streams a client may have open at once, and handlers
 *                             that run at once for a connection: a handler keeps its place until it returns, however
 *                             early the client reset its stream, and a stream opened meanwhile waits for a place
 *                             (rapid reset, CVE-2023-44487, is bounded so, as in Go; past four times this many
 *                             waiting streams the connection gets GOAWAY ENHANCE_YOUR_CALM)
 * @param initialWindowSize    SETTINGS_INITIAL_WINDOW_SIZE: request body bytes a stream may send before the handler
 *                             reads them
 * @param connectionWindowSize the connection's receive window: request body bytes all streams of a connection may
 *                             have in flight, the bound on what one connection can make the server buffer
 * @param maxStreamResets      stream resets per {@code resetWindow} that no waiting explains: those a client's frames
 *                             provoke from the server (malformed requests, frames on a stream it ended, streams past
 *                             the limit it was told; MadeYouReset, CVE-2025-8671) and the client's RST_STREAM in the
 *                             very read that opened the stream (rapid reset, CVE-2023-44487); beyond it (at that
 *                             average rate, after a burst of this many) the connection gets GOAWAY ENHANCE_YOUR_CALM.
 *                             A client cancelling calls it waited for never counts
 * @param resetWindow          the period {@code maxStreamResets} refers to
 * @param maxControlFramesPerSecond frames that must be answered or change nothing useful: SETTINGS, PING (not
 *                             acknowledgements, nor a PING after a response went out), PRIORITY, DATA without
 *                             payload or END_STREAM, and WINDOW_UPDATE beyond the credit of DATA we sent (a stream's
 *                             first one, or one for a stream that is gone, is free); beyond this rate (after a burst
 *                             of as many) the connection gets GOAWAY ENHANCE_YOUR_CALM (CVE-2019-9512/9515/9518)
 */
public record Http2Options(boolean enabled, boolean cleartext, int maxConcurrentStreams, int initialWindowSize,
                           int connectionWindowSize, int maxStreamResets, java.time.Duration resetWindow,
                           int maxControlFramesPerSecond) {
    /**
     * Checks the ranges: stream limit, stream window and budgets positive, the connection window at least RFC 9113's
     * initial 65 535 bytes.
     */
    public Http2Options {
        if (maxConcurrentStreams <= 0 || initialWindowSize <= 0 || connectionWindowSize < 65_535
                || maxStreamResets <= 0 || resetWindow == null || resetWindow.isNegative() || resetWindow.isZero()
                || maxControlFramesPerSecond <= 0) {
            throw new IllegalArgumentException("invalid HTTP/2 options: " + maxConcurrentStreams + " streams, "
                    + initialWindowSize + " / " + connectionWindowSize + " window, " + maxStreamResets
                    + " resets per " + resetWindow + ", " + maxControlFramesPerSecond + " control frames/s");
        }
    }

    /** {@return HTTP/2 over TLS and h2c, with the defaults below} */
    public static Http2Options defaults() {
        return builder().build();
    }

    /**
     * HTTP/2 off: every connection speaks HTTP/1.1 (ALPN offers only {@code http/1.1}).
     *
     * @return options with HTTP/2 off
     */
    public static Http2Options disabled() {
        return builder().enabled(false).build();
    }

    /** {@return a builder starting from the defaults} */
    public static Builder builder() {
        return new Builder();
    }

    /** Hand-written builder; every option has a default. */
    public static final class Builder {
        private boolean enabled = true;
        private boolean cleartext = true;
        private int maxConcurrentStreams = 128;
        private int initialWindowSize = 1 << 20;
        private int connectionWindowSize = 1 << 20;
        private int maxStreamResets = 200;
        private java.time.Duration resetWindow = java.time.Duration.ofSeconds(30);
        private int maxControlFramesPerSecond = 200;

        private Builder() {
        }

        /**
         * Default true: Go, Jetty and Helidon serve HTTP/2 when TLS offers it.
         *
         * @param enabled whether HTTP/2 is served at all
         * @return this builder
         */
        public Builder enabled(boolean enabled) {
            this.enabled = enabled;
            return this;
        }

        /**
         * Default true: h2c costs nothing to offer (a preface is not valid HTTP/1.1, and an upgrade is the client's
         * request), and proxies and load generators (seed 001, h2load) speak it.
         *
         * @param cleartext whether h2c is served on plaintext ports
         * @return this builder
         */
        public Builder cleartext(boolean cleartext) {
            this.cleartext = cleartext;
            return this;
        }

        /**
         * Default 128, as nginx and Jetty (Go 250, RFC 9113 recommends at least 100).
         *
         * @param streams the most streams a client may have open at once (SETTINGS_MAX_CONCURRENT_STREAMS)
         * @return this builder
         */
        public Builder maxConcurrentStreams(int streams) {
            this.maxConcurrentStreams = streams;
            return this;
        }

        /**
         * Default 1 MiB, Go's per-stream upload buffer: a fast upload does not wait for WINDOW_UPDATE round trips.
         *
         * @param bytes each stream's receive window (SETTINGS_INITIAL_WINDOW_SIZE)
         * @return this builder
         */
        public Builder initialWindowSize(int bytes) {
            this.initialWindowSize = bytes;
            return this;
        }

        /**
         * Default 1 MiB, Go's per-connection upload buffer (Jetty 1 MiB too): the most one connection can park here.
         *
         * @param bytes the connection's receive window
         * @return this builder
         */
        public Builder connectionWindowSize(int bytes) {
            this.connectionWindowSize = bytes;
            return this;
        }

        /**
         * Default 200 per 30 s, Netty's {@code Http2MaxRstFrameDecoder} defaults. Only resets the client's own
         * mistakes provoke count: a well-behaved client makes none, and a flood of malformed frames meets the limit.
         *
         * @param resets the most resets the client may provoke within {@code window}; one more closes the connection
         * @param window the sliding window they are counted in
         * @return this builder
         */
        public Builder maxStreamResets(int resets, java.time.Duration window) {
            this.maxStreamResets = resets;
            this.resetWindow = window;
            return this;
        }

        /**
         * Default 200 per second. Jetty's rate control closes a session past 128 suspicious frames per second;
         * Netty limits consecutive empty DATA frames. The frames counted are the ones no client needs to send at a
         * rate: what clients send per request (credit back for a body read or dropped, a new stream's window, a
         * PING beside responses) is never counted.
         *
         * @param frames the most counted frames per second; one more closes the connection with ENHANCE_YOUR_CALM
         * @return this builder
         */
        public Builder maxControlFramesPerSecond(int frames) {
            this.maxControlFramesPerSecond = frames;
            return this;
        }

        /** {@return the options} */
        public Http2Options build() {
            return new Http2Options(enabled, cleartext, maxConcurrentStreams, initialWindowSize, connectionWindowSize,
                    maxStreamResets, resetWindow, maxControlFramesPerSecond);
        }
    }
}
