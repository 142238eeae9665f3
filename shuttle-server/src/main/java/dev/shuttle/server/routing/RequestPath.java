package dev.shuttle.server.routing;

import dev.shuttle.server.core.PercentDecoder;
import java.util.Arrays;

/**
 * A clean request path prepared for matching: its segments decoded once (strictly: a malformed escape is the client's
 * error), where each raw segment starts (a rest wildcard's value is the raw rest, decoded as one), and whether a
 * trailing slash ends it. {@code /} has no segment and a trailing slash. Immutable.
 */
final class RequestPath {
    final String raw;
    final String[] segments;
    /** Offset in {@link #raw} where each segment starts. */
    final int[] starts;
    final boolean trailingSlash;

    private RequestPath(String raw, String[] segments, int[] starts, boolean trailingSlash) {
        this.raw = raw;
        this.segments = segments;
        this.starts = starts;
        this.trailingSlash = trailingSlash;
    }

    /** @throws IllegalArgumentException when a segment's escapes are malformed or not UTF-8 */
    static RequestPath parse(String raw) {
        String[] segments = new String[8];
        int[] starts = new int[8];
        int count = 0;
        int start = 1;
        boolean trailing = false;
        while (start <= raw.length()) {
            if (start == raw.length()) {
                trailing = true;
                break;
            }
            int end = raw.indexOf('/', start);
            if (end < 0) {
                end = raw.length();
            }
            if (count == segments.length) {
                segments = Arrays.copyOf(segments, count * 2);
                starts = Arrays.copyOf(starts, count * 2);
            }
            segments[count] = PercentDecoder.decode(raw, start, end, false, true);
            starts[count] = start;
            count++;
            start = end + 1;
        }
        return new RequestPath(raw, Arrays.copyOf(segments, count), Arrays.copyOf(starts, count), trailing);
    }

    int count() {
        return segments.length;
    }

    /** The decoded rest of the path from segment {@code i} on, trailing slash included ("" at the end). */
    String restFrom(int i) {
        int from = i < segments.length ? starts[i] : raw.length();
        return PercentDecoder.decode(raw, from, raw.length(), false, true);
    }

    /** This path with a trailing slash added (for the redirect check); itself when it has one. */
    RequestPath withTrailingSlash() {
        return trailingSlash ? this : new RequestPath(raw + "/", segments, starts, true);
    }
}
