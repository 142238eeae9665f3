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

    /**
     * Parses an HTTP-date in any of the three forms RFC 9110 5.6.7 obliges a recipient to accept: IMF-fixdate
     * ({@code Sun, 06 Nov 1994 08:49:37 GMT}), RFC 850 ({@code Sunday, 06-Nov-94 08:49:37 GMT}, a two-digit year
     * read as the nearest past century, as the RFC asks) and asctime ({@code Sun Nov  6 08:49:37 1994}).
     *
     * @return seconds since the epoch, or {@link Long#MIN_VALUE} when {@code text} is not such a date
     */
    public static long parse(String text) {
        if (text == null) {
            return Long.MIN_VALUE;
        }
        String[] parts = text.strip().split("[ ,\\-]+");
        try {
            int day;
            int month;
            int year;
            String clock;
            if (parts.length == 6 && parts[5].equals("GMT")) { // IMF-fixdate or RFC 850: day-name, day month year
                day = Integer.parseInt(parts[1]);
                month = month(parts[2]);
                year = Integer.parseInt(parts[3]);
                if (parts[3].length() == 2) {
                    int thisYear = LocalDateTime.now(ZoneOffset.UTC).getYear();
                    year += thisYear / 100 * 100;
                    if (year > thisYear + 50) {
                        year -= 100;
                    }
                } else if (parts[3].length() != 4) {
                    return Long.MIN_VALUE;
                }
                clock = parts[4];
            } else if (parts.length == 5) { // asctime: day-name month day time year
                month = month(parts[1]);
                day = Integer.parseInt(parts[2]);
                clock = parts[3];
                year = Integer.parseInt(parts[4]);
            } else {
                return Long.MIN_VALUE;
            }
            String[] hms = clock.split(":");
            if (month < 0 || hms.length != 3) {
                return Long.MIN_VALUE;
            }
            return LocalDateTime.of(year, month, day, Integer.parseInt(hms[0]), Integer.parseInt(hms[1]),
                    Integer.parseInt(hms[2])).toEpochSecond(ZoneOffset.UTC);
        } catch (RuntimeException e) { // NumberFormatException, DateTimeException
            return Long.MIN_VALUE;
        }
    }

    private static int month(String name) {
        for (int i = 0; i < MONTHS.length; i++) {
            if (MONTHS[i].equals(name)) {
                return i + 1;
            }
        }
        return -1;
    }

    private static StringBuilder twoDigits(StringBuilder text, int value) {
        return text.append((char) ('0' + value / 10)).append((char) ('0' + value % 10));
    }
}
