package dev.shuttle.server.files;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The {@code Range} header of a request for a representation of {@code size} bytes (RFC 9110 section 14), decided as
 * Go's file server decides it. A unit other than {@code bytes} is ignored (the whole representation is sent); a
 * syntax error, or ranges none of which overlap the representation, is unsatisfiable (416); ranges that do not
 * overlap are dropped. Ranges that together ask for more bytes than the representation holds (overlapping ranges,
 * the amplification of CVE-2011-3192), or more than {@link #MAX_RANGES} of them, are ignored too. Stateless.
 */
final class ByteRanges {
    /** At most this many ranges in one request; more is a client probing for amplification. */
    static final int MAX_RANGES = 100;

    /** One range, inclusive of both ends. */
    record Range(long first, long last) {
        long length() {
            return last - first + 1;
        }

        /** {@code bytes first-last/size}. */
        String contentRange(long size) {
            return "bytes " + first + "-" + last + "/" + size;
        }
    }

    /** What to send: the whole representation, some ranges of it, or 416. */
    sealed interface Decision permits Whole, Partial, Unsatisfiable {
    }

    record Whole() implements Decision {
    }

    record Partial(List<Range> ranges) implements Decision {
    }

    record Unsatisfiable(String reason) implements Decision {
    }

    private static final Whole WHOLE = new Whole();

    private ByteRanges() {
    }

    static Decision decide(String header, long size) {
        if (header == null) {
            return WHOLE;
        }
        String value = header.strip();
        int equals = value.indexOf('=');
        if (equals < 0) {
            return new Unsatisfiable("no '=' in the Range header");
        }
        if (!value.substring(0, equals).strip().toLowerCase(Locale.ROOT).equals("bytes")) {
            return WHOLE; // RFC 9110 14.2: an unknown range unit is ignored
        }
        List<Range> ranges = new ArrayList<>();
        long total = 0;
        int count = 0;
        for (String part : value.substring(equals + 1).split(",", -1)) {
            String spec = part.strip();
            if (spec.isEmpty()) {
                continue; // RFC 9110 allows empty list elements
            }
            if (++count > MAX_RANGES) {
                return WHOLE;
            }
            int dash = spec.indexOf('-');
            if (dash < 0) {
                return new Unsatisfiable("range without '-': " + spec);
            }
            String from = spec.substring(0, dash).strip();
            String to = spec.substring(dash + 1).strip();
            Range range;
            if (from.isEmpty()) {
                // suffix: the last n bytes
                long n = digits(to);
                if (n < 0) {
                    return new Unsatisfiable("invalid suffix length: " + spec);
                }
                if (n == 0 || size == 0) {
                    continue; // asks for nothing: does not overlap
                }
                range = new Range(Math.max(0, size - n), size - 1);
            } else {
                long first = digits(from);
                if (first < 0) {
                    return new Unsatisfiable("invalid range start: " + spec);
                }
                long last;
                if (to.isEmpty()) {
                    last = size - 1;
                } else {
                    last = digits(to);
                    if (last < 0 || last < first) {
                        return new Unsatisfiable("invalid range end: " + spec);
                    }
                    last = Math.min(last, size - 1);
                }
                if (first >= size) {
                    continue; // does not overlap
                }
                range = new Range(first, last);
            }
            ranges.add(range);
            total += range.length();
        }
        if (count == 0) {
            return new Unsatisfiable("no range in the Range header");
        }
        if (ranges.isEmpty()) {
            return new Unsatisfiable("no range overlaps the " + size + " bytes");
        }
        if (total > size) {
            return WHOLE; // more bytes than the whole: an attack or a confused client (as Go decides)
        }
        return new Partial(List.copyOf(ranges));
    }

    /** A non-negative decimal number (at most 18 digits, so it cannot overflow), or -1. */
    private static long digits(String text) {
        if (text.isEmpty() || text.length() > 18) {
            return -1;
        }
        long value = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }
}
