package dev.shuttle.client.http2;

import dev.shuttle.client.ResponseLimits;
import dev.shuttle.wire.http2.Http2Limits;
import dev.shuttle.wire.http2.Http2Settings;

/**
 * What one client's HTTP/2 connections are configured with (the server's public counterpart is its
 * {@code Http2Options}).
 *
 * @param streamWindow     our SETTINGS_INITIAL_WINDOW_SIZE: body bytes a server may send on a stream before the
 *                         caller reads them. 1 MiB: one stream fills 100 Mbit/s at 80 ms of round trip; OkHttp and
 *                         Jetty use 16 MiB / 8 MiB for the connection and less per stream, Go 4 MiB per stream.
 *                         It bounds what an unread body can make us buffer
 * @param connectionWindow our connection receive window: 16 MiB, so that many streams can fill at once (OkHttp's)
 * @param pingIntervalMillis after this long without any frame from the server, send a PING (0: never); an idle
 *                         connection is woken from the watcher for it
 * @param pingTimeoutMillis  a PING not answered within this closes the connection
 * @param limits           the decoder's bounds, from the client's {@link ResponseLimits}
 */
public record Http2ConnectionConfig(int streamWindow, int connectionWindow, long pingIntervalMillis, long pingTimeoutMillis,
                    Http2Limits limits, ResponseLimits responseLimits) {
    static final int DEFAULT_STREAM_WINDOW = 1 << 20;
    static final int DEFAULT_CONNECTION_WINDOW = 16 << 20;

    public static Http2ConnectionConfig of(ResponseLimits responseLimits, long pingIntervalMillis) {
        Http2Limits defaults = Http2Limits.clientDefaults();
        int listSize = responseLimits.maxHeaderBytes();
        Http2Limits limits = new Http2Limits(defaults.maxFrameSize(), listSize,
                Math.max(defaults.maxHeaderBlockBytes(), 2 * listSize), defaults.maxContinuationFrames(),
                Http2Settings.DEFAULT_HEADER_TABLE_SIZE);
        long pingTimeout = pingIntervalMillis == 0 ? 0 : Math.min(pingIntervalMillis, 10_000);
        return new Http2ConnectionConfig(DEFAULT_STREAM_WINDOW, DEFAULT_CONNECTION_WINDOW, pingIntervalMillis, pingTimeout,
                limits, responseLimits);
    }

    /** Our SETTINGS: no push, our stream window, our header list bound. */
    Http2Settings localSettings() {
        return limits.announceIn(Http2Settings.DEFAULTS)
                .with(Http2Settings.ENABLE_PUSH, 0)
                .with(Http2Settings.INITIAL_WINDOW_SIZE, streamWindow);
    }
}
