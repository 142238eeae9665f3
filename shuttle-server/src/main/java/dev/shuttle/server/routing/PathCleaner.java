package dev.shuttle.server.routing;

import java.util.ArrayList;
import java.util.List;

/**
 * The canonical form of a request path, as Go's {@code ServeMux} computes it before matching: runs of slashes become
 * one, {@code .} segments go, a {@code ..} segment takes the one before it (never climbing above the root), a
 * trailing slash is kept. Works on the path as sent (still percent-encoded), so {@code %2e%2e} is a name here, not a
 * step up: what a handler does with decoded segments is its own business (the file server refuses them). Stateless.
 */
final class PathCleaner {
    private PathCleaner() {
    }

    static String clean(String path) {
        if (path.isEmpty()) {
            return "/";
        }
        if (isClean(path)) {
            return path;
        }
        List<String> kept = new ArrayList<>();
        int start = path.charAt(0) == '/' ? 1 : 0;
        while (start <= path.length()) {
            int end = path.indexOf('/', start);
            if (end < 0) {
                end = path.length();
            }
            String segment = path.substring(start, end);
            if (segment.equals("..")) {
                if (!kept.isEmpty()) {
                    kept.removeLast();
                }
            } else if (!segment.isEmpty() && !segment.equals(".")) {
                kept.add(segment);
            }
            start = end + 1;
        }
        StringBuilder clean = new StringBuilder(path.length());
        for (String segment : kept) {
            clean.append('/').append(segment);
        }
        if (clean.isEmpty() || path.endsWith("/")) {
            clean.append('/');
        }
        return clean.toString();
    }

    /** The common case, checked without allocating: starts with '/', no "//", no "." or ".." segment. */
    private static boolean isClean(String path) {
        if (path.charAt(0) != '/') {
            return false;
        }
        int segmentStart = 1;
        for (int i = 1; i <= path.length(); i++) {
            if (i == path.length() || path.charAt(i) == '/') {
                int length = i - segmentStart;
                if (length == 0 && i < path.length()) {
                    return false; // "//"
                }
                if (length == 1 && path.charAt(segmentStart) == '.') {
                    return false;
                }
                if (length == 2 && path.charAt(segmentStart) == '.' && path.charAt(segmentStart + 1) == '.') {
                    return false;
                }
                segmentStart = i + 1;
            }
        }
        return true;
    }
}
