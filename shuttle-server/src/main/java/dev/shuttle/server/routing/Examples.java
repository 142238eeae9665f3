package dev.shuttle.server.routing;

import dev.shuttle.server.routing.Pattern.Kind;
import dev.shuttle.server.routing.Pattern.Segment;
import java.util.List;

/** Example paths that show why two patterns conflict, for the registration error. Stateless. */
final class Examples {
    private Examples() {
    }

    /** A path both patterns match (they are known to overlap). */
    static String common(Pattern a, Pattern b) {
        StringBuilder path = new StringBuilder();
        List<Segment> mine = a.segments;
        List<Segment> theirs = b.segments;
        int common = Math.min(mine.size(), theirs.size());
        for (int i = 0; i < common; i++) {
            Segment s = mine.get(i);
            append(path, s.kind() == Kind.WILDCARD || s.kind() == Kind.REST ? theirs.get(i) : s);
        }
        for (Segment s : (mine.size() > common ? mine : theirs).subList(common, Math.max(mine.size(),
                theirs.size()))) {
            append(path, s);
        }
        return path.isEmpty() ? "/" : path.toString();
    }

    /** A path {@code a} matches and {@code b} does not (one is known to exist). */
    static String difference(Pattern a, Pattern b) {
        StringBuilder path = new StringBuilder();
        List<Segment> mine = a.segments;
        List<Segment> theirs = b.segments;
        int i = 0;
        for (; i < mine.size() && i < theirs.size(); i++) {
            Segment s1 = mine.get(i);
            Segment s2 = theirs.get(i);
            if (s1.kind() == Kind.REST && s2.kind() == Kind.REST) {
                return path.append('/').toString();
            }
            if (s1.kind() == Kind.REST) {
                // A trailing slash tells them apart, unless the other ends in {$}: then any further segment does.
                path.append('/');
                if (s2.kind() == Kind.END) {
                    path.append(s1.text().isEmpty() ? "x" : s1.text());
                }
                return path.toString();
            }
            if (s1.kind() == Kind.WILDCARD && s2.kind() == Kind.LITERAL) {
                path.append('/').append(s1.text().equals(s2.text()) ? s2.text() + "x" : s1.text());
            } else {
                append(path, s1);
            }
        }
        for (; i < mine.size(); i++) {
            append(path, mine.get(i));
        }
        return path.isEmpty() ? "/" : path.toString();
    }

    private static void append(StringBuilder path, Segment segment) {
        path.append('/');
        if (segment.kind() == Kind.LITERAL || segment.kind() == Kind.WILDCARD) {
            path.append(segment.text());
        }
    }
}
