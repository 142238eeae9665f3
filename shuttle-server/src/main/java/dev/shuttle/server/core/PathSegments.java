package dev.shuttle.server.core;

import java.util.ArrayList;
import java.util.List;

/**
 * A request path as decoded segments: split at each {@code /} first, then each piece percent-decoded strictly
 * ({@link PercentDecoder}), so an encoded slash ({@code %2F}) stays inside its segment instead of becoming a separator,
 * and {@code +} stays a plus. Stateless.
 */
public final class PathSegments {
    private PathSegments() {
    }

    /**
     * {@code /a/b} → [a, b]; {@code /a/} → [a, ""]; {@code /} → [""]; a path that does not start with {@code /}
     * ({@code *}, the empty path of the authority form) → [].
     *
     * @throws IllegalArgumentException for a malformed escape or bytes that are not UTF-8
     */
    public static List<String> decode(String rawPath) {
        if (rawPath.isEmpty() || rawPath.charAt(0) != '/') {
            return List.of();
        }
        List<String> segments = new ArrayList<>(4);
        int start = 1;
        while (true) {
            int slash = rawPath.indexOf('/', start);
            int end = slash < 0 ? rawPath.length() : slash;
            segments.add(PercentDecoder.decode(rawPath, start, end, false, true));
            if (slash < 0) {
                return List.copyOf(segments);
            }
            start = slash + 1;
        }
    }
}
