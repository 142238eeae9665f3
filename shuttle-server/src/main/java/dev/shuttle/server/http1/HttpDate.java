package dev.shuttle.server.http1;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * The {@code Date} header value (RFC 9110 5.6.7 IMF-fixdate), formatted once per second and shared: every response
 * needs it and formatting a date per response would cost more than the rest of the head.
 */
final class HttpDate {
    private static final DateTimeFormatter IMF_FIXDATE =
            DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US).withZone(ZoneOffset.UTC);

    private record Cached(long epochSecond, String text) {
    }

    /** Any thread may replace it; a stale or duplicate formatting is harmless. */
    private static volatile Cached cached = new Cached(Long.MIN_VALUE, "");

    private HttpDate() {
    }

    static String now() {
        long second = System.currentTimeMillis() / 1000;
        Cached current = cached;
        if (current.epochSecond != second) {
            current = new Cached(second, format(second));
            cached = current;
        }
        return current.text;
    }

    static String format(long epochSecond) {
        return IMF_FIXDATE.format(Instant.ofEpochSecond(epochSecond));
    }
}
