package dev.shuttle.server.files;

import dev.shuttle.server.Request;
import dev.shuttle.server.core.HttpDate;
import java.util.ArrayList;
import java.util.List;

/**
 * Conditional requests against one representation (RFC 9110 section 13.2.2, in its order): {@code If-Match}, else
 * {@code If-Unmodified-Since}, may fail with 412; then {@code If-None-Match}, else {@code If-Modified-Since}, may
 * answer 304 (for GET and HEAD); {@code If-Range} decides whether a {@code Range} applies. Entity tags compare weakly
 * for {@code If-None-Match} and strongly for {@code If-Match} and {@code If-Range}; dates at one-second precision.
 * Stateless.
 */
final class Preconditions {
    enum Outcome { PROCEED, NOT_MODIFIED, PRECONDITION_FAILED }

    private Preconditions() {
    }

    /** @param lastModified seconds since the epoch, or {@link Long#MIN_VALUE} when unknown */
    static Outcome evaluate(Request request, String etag, long lastModified) {
        String ifMatch = request.header("If-Match");
        if (ifMatch != null) {
            if (!anyMatches(ifMatch, etag, true)) {
                return Outcome.PRECONDITION_FAILED;
            }
        } else {
            long since = HttpDate.parse(request.header("If-Unmodified-Since"));
            if (since != Long.MIN_VALUE && lastModified != Long.MIN_VALUE && lastModified > since) {
                return Outcome.PRECONDITION_FAILED;
            }
        }
        boolean safe = request.method().equals("GET") || request.method().equals("HEAD");
        String ifNoneMatch = request.header("If-None-Match");
        if (ifNoneMatch != null) {
            if (anyMatches(ifNoneMatch, etag, false)) {
                return safe ? Outcome.NOT_MODIFIED : Outcome.PRECONDITION_FAILED;
            }
        } else if (safe) {
            long since = HttpDate.parse(request.header("If-Modified-Since"));
            if (since != Long.MIN_VALUE && lastModified != Long.MIN_VALUE && lastModified <= since) {
                return Outcome.NOT_MODIFIED;
            }
        }
        return Outcome.PROCEED;
    }

    /** Whether a {@code Range} may be honoured: no {@code If-Range}, or one that names this representation. */
    static boolean rangeApplies(Request request, String etag, long lastModified) {
        String ifRange = request.header("If-Range");
        if (ifRange == null) {
            return true;
        }
        String value = ifRange.strip();
        if (value.startsWith("\"") || value.startsWith("W/")) {
            return strongEquals(value, etag);
        }
        long date = HttpDate.parse(value);
        return date != Long.MIN_VALUE && date == lastModified; // RFC 9110 13.1.5: an exact match
    }

    /** Whether {@code header} (a list of entity tags, or {@code *}) names {@code etag}. */
    static boolean anyMatches(String header, String etag, boolean strong) {
        if (header.strip().equals("*")) {
            return true;
        }
        for (String candidate : tags(header)) {
            if (strong ? strongEquals(candidate, etag) : opaque(candidate).equals(opaque(etag))) {
                return true;
            }
        }
        return false;
    }

    private static boolean strongEquals(String a, String b) {
        return !a.startsWith("W/") && !b.startsWith("W/") && a.equals(b);
    }

    private static String opaque(String tag) {
        return tag.startsWith("W/") ? tag.substring(2) : tag;
    }

    /** The entity tags of a list; commas inside quotes do not split. */
    private static List<String> tags(String header) {
        List<String> tags = new ArrayList<>();
        int i = 0;
        int n = header.length();
        while (i < n) {
            while (i < n && (header.charAt(i) == ' ' || header.charAt(i) == '\t' || header.charAt(i) == ',')) {
                i++;
            }
            int start = i;
            if (header.startsWith("W/", i)) {
                i += 2;
            }
            if (i < n && header.charAt(i) == '"') {
                int close = header.indexOf('"', i + 1);
                if (close < 0) {
                    break; // unterminated: ignore the rest
                }
                tags.add(header.substring(start, close + 1));
                i = close + 1;
            } else {
                while (i < n && header.charAt(i) != ',') {
                    i++; // not an entity tag: skipped
                }
            }
        }
        return tags;
    }
}
