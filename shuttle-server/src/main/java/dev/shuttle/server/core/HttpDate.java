package dev.shuttle.server.core;

import java.time.LocalDateTime;
import java.time.ZoneOffset;

/**
 * The {@code Date} header value (RFC 9110 5.6.7 IMF-fixdate), formatted once per second and shared: every response
 * needs it and formatting a date per response would cost more than the rest of the head.
 *
 * <p>Formatted by hand rather than with a {@code DateTimeFormatter}: IMF-fixdate uses fixed English names, and a
 * formatter with a locale loads the JDK's CLDR locale data on first use, which took hundreds of milliseconds on a
 * loaded machine while every connection thread waited on the class-initialisation lock behind the first response.
 */
public final class HttpDate {
    private static final String[] DAYS = {"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"};
    private static final String[] MONTHS =
            {"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};

    private record Cached(long epochSecond, String text) {
    }

    /** Any thread may replace it; a stale or duplicate formatting is harmless. */
    private static volatile Cached cached = new Cached(Long.MIN_VALUE, "");

    private HttpDate() {
    }

    public static String now() {
        long second = System.currentTimeMillis() / 1000;
        Cached current = cached;
        if (current.epochSecond != second) {
            current = new Cached(second, format(second));
            cached = current;
        }
        return current.text;
    }

    /** {@code Sun, 06 Nov 1994 08:49:37 GMT}; years 0 to 9999. */
    public static String format(long epochSecond) {
        LocalDateTime time = LocalDateTime.ofEpochSecond(epochSecond, 0, ZoneOffset.UTC);
        StringBuilder text = new StringBuilder(29)
                .append(DAYS[time.getDayOfWeek().ordinal()]).append(", ");
        twoDigits(text, time.getDayOfMonth()).append(' ')
                .append(MONTHS[time.getMonthValue() - 1]).append(' ');
        int year = time.getYear();
        twoDigits(text, year / 100);
        twoDigits(text, year % 100).append(' ');
        twoDigits(text, time.getHour()).append(':');
        twoDigits(text, time.getMinute()).append(':');
        twoDigits(text, time.getSecond());
        return text.append(" GMT").toString();
    }

    private static StringBuilder twoDigits(StringBuilder text, int value) {
        return text.append((char) ('0' + value / 10)).append((char) ('0' + value % 10));
    }
}
