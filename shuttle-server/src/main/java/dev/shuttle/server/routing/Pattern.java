package dev.shuttle.server.routing;

import dev.shuttle.server.core.PercentDecoder;
import dev.shuttle.wire.FieldSyntax;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A routing pattern, {@code [METHOD ][HOST]/[PATH]}, with Go 1.22 {@code ServeMux} semantics. PATH is made of
 * segments: a literal (matched after percent-decoding), {@code {name}} (any one segment), {@code {name...}} (the rest
 * of the path, last only), or {@code {$}} (the end of the path after a trailing slash, last only). A path ending in
 * {@code /} matches everything below it, as an anonymous {@code {...}}. A pattern without a method matches every
 * method; {@code GET} also matches HEAD. Hosts are compared without case.
 *
 * <p>Internally a trailing slash is a nameless {@link Kind#REST} segment and {@code {$}} an {@link Kind#END} segment,
 * which makes comparing two patterns a segment-by-segment affair ({@link #compare}). Immutable.
 */
final class Pattern {
    enum Kind { LITERAL, WILDCARD, REST, END }

    /** {@code text}: a literal's decoded text, or a wildcard's name ("" for the rest of a trailing slash). */
    record Segment(Kind kind, String text) {
    }

    /** How this pattern's set of requests relates to another's (Go's precedence rules, in set terms). */
    enum Relation {
        EQUIVALENT, MORE_GENERAL, MORE_SPECIFIC, DISJOINT, OVERLAPS;

        Relation inverse() {
            return switch (this) {
                case MORE_GENERAL -> MORE_SPECIFIC;
                case MORE_SPECIFIC -> MORE_GENERAL;
                default -> this;
            };
        }

        /** The relation of two patterns from the relations of two independent parts of them. */
        Relation and(Relation other) {
            return switch (this) {
                case EQUIVALENT -> other;
                case DISJOINT -> DISJOINT;
                case OVERLAPS -> other == DISJOINT ? DISJOINT : OVERLAPS;
                case MORE_GENERAL, MORE_SPECIFIC -> other == EQUIVALENT ? this
                        : other == inverse() ? OVERLAPS : other;
            };
        }
    }

    final String text;
    /** Empty: every method. */
    final String method;
    /** Lower case; empty: every host. */
    final String host;
    final List<Segment> segments;
    /** Wildcard names in order; their values come out of a match in this order. */
    final List<String> names;

    private Pattern(String text, String method, String host, List<Segment> segments, List<String> names) {
        this.text = text;
        this.method = method;
        this.host = host;
        this.segments = segments;
        this.names = names;
    }

    /** @throws IllegalArgumentException naming the pattern and what is wrong with it */
    static Pattern parse(String text) {
        if (text == null || text.isEmpty()) {
            throw new IllegalArgumentException("empty pattern");
        }
        String method = "";
        String rest = text;
        int space = indexOfSpace(text);
        if (space >= 0) {
            method = text.substring(0, space);
            rest = text.substring(space + 1).strip();
            if (!FieldSyntax.isToken(method)) {
                throw invalid(text, "invalid method \"" + method + "\"");
            }
        }
        int slash = rest.indexOf('/');
        if (slash < 0) {
            throw invalid(text, "host/path missing /");
        }
        String host = rest.substring(0, slash).toLowerCase(Locale.ROOT);
        if (host.indexOf('{') >= 0) {
            throw invalid(text, "host contains '{' (missing initial '/'?)");
        }
        String path = rest.substring(slash);
        if (!path.equals(PathCleaner.clean(path))) {
            throw invalid(text, "the path is not clean (\"//\", \".\" or \"..\" segments): requests are matched on "
                    + "cleaned paths, so it could never match");
        }
        List<Segment> segments = new ArrayList<>();
        List<String> names = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        int start = 1;
        while (start <= path.length()) {
            if (start == path.length()) {
                if (path.length() > 1 || segments.isEmpty()) {
                    segments.add(new Segment(Kind.REST, "")); // trailing slash: everything below
                }
                break;
            }
            int end = path.indexOf('/', start);
            if (end < 0) {
                end = path.length();
            }
            String segment = path.substring(start, end);
            boolean last = end == path.length();
            if (segment.indexOf('{') < 0 && segment.indexOf('}') < 0) {
                segments.add(new Segment(Kind.LITERAL, PercentDecoder.decode(segment, false, false)));
            } else {
                if (!segment.startsWith("{") || !segment.endsWith("}")) {
                    throw invalid(text, "bad wildcard segment \"" + segment + "\" (a wildcard is a whole segment)");
                }
                String name = segment.substring(1, segment.length() - 1);
                if (name.equals("$")) {
                    if (!last) {
                        throw invalid(text, "{$} not at the end");
                    }
                    segments.add(new Segment(Kind.END, ""));
                    break;
                }
                boolean rest1 = name.endsWith("...");
                if (rest1) {
                    name = name.substring(0, name.length() - 3);
                    if (!last) {
                        throw invalid(text, "{" + name + "...} not at the end");
                    }
                }
                if (!validName(name)) {
                    throw invalid(text, "bad wildcard name \"" + name + "\"");
                }
                if (!seen.add(name)) {
                    throw invalid(text, "duplicate wildcard name \"" + name + "\"");
                }
                names.add(name);
                segments.add(new Segment(rest1 ? Kind.REST : Kind.WILDCARD, name));
            }
            start = end + 1;
        }
        return new Pattern(text, method, host, List.copyOf(segments), List.copyOf(names));
    }

    private static int indexOfSpace(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == ' ' || c == '\t') {
                return i;
            }
        }
        return -1;
    }

    private static boolean validName(String name) {
        if (name.isEmpty() || !(Character.isLetter(name.charAt(0)) || name.charAt(0) == '_')) {
            return false;
        }
        for (int i = 1; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!Character.isLetterOrDigit(c) && c != '_') {
                return false;
            }
        }
        return true;
    }

    private static IllegalArgumentException invalid(String text, String why) {
        return new IllegalArgumentException("pattern \"" + text + "\": " + why);
    }

    Segment last() {
        return segments.getLast();
    }

    /** Whether both can match one request and neither wins by precedence (Go: host first, then specificity). */
    boolean conflictsWith(Pattern other) {
        if (!host.equals(other.host)) {
            return false; // one has a host and wins, or the hosts differ and never meet
        }
        Relation relation = compare(other);
        return relation == Relation.EQUIVALENT || relation == Relation.OVERLAPS;
    }

    /** This pattern's methods and paths against {@code other}'s. */
    Relation compare(Pattern other) {
        Relation methods = compareMethods(other);
        return methods == Relation.DISJOINT ? Relation.DISJOINT : methods.and(comparePaths(other));
    }

    Relation compareMethods(Pattern other) {
        if (method.equals(other.method)) {
            return Relation.EQUIVALENT;
        }
        if (method.isEmpty()) {
            return Relation.MORE_GENERAL;
        }
        if (other.method.isEmpty()) {
            return Relation.MORE_SPECIFIC;
        }
        if (method.equals("GET") && other.method.equals("HEAD")) {
            return Relation.MORE_GENERAL;
        }
        if (method.equals("HEAD") && other.method.equals("GET")) {
            return Relation.MORE_SPECIFIC;
        }
        return Relation.DISJOINT;
    }

    Relation comparePaths(Pattern other) {
        List<Segment> mine = segments;
        List<Segment> theirs = other.segments;
        boolean myRest = last().kind() == Kind.REST;
        boolean theirRest = other.last().kind() == Kind.REST;
        if (mine.size() != theirs.size() && !myRest && !theirRest) {
            return Relation.DISJOINT;
        }
        Relation relation = Relation.EQUIVALENT;
        int common = Math.min(mine.size(), theirs.size());
        for (int i = 0; i < common; i++) {
            relation = relation.and(compareSegments(mine.get(i), theirs.get(i)));
            if (relation == Relation.DISJOINT) {
                return relation;
            }
        }
        if (mine.size() == theirs.size()) {
            return relation;
        }
        // The shorter one can only meet the longer one if it ends in a rest wildcard, which is the more general.
        if (mine.size() < theirs.size() && myRest) {
            return relation.and(Relation.MORE_GENERAL);
        }
        if (theirs.size() < mine.size() && theirRest) {
            return relation.and(Relation.MORE_SPECIFIC);
        }
        return Relation.DISJOINT;
    }

    private static Relation compareSegments(Segment a, Segment b) {
        if (a.kind() == Kind.REST && b.kind() == Kind.REST) {
            return Relation.EQUIVALENT;
        }
        if (a.kind() == Kind.REST) {
            return Relation.MORE_GENERAL;
        }
        if (b.kind() == Kind.REST) {
            return Relation.MORE_SPECIFIC;
        }
        if (a.kind() == Kind.WILDCARD && b.kind() == Kind.WILDCARD) {
            return Relation.EQUIVALENT;
        }
        if (a.kind() == Kind.WILDCARD) {
            return b.kind() == Kind.END ? Relation.DISJOINT : Relation.MORE_GENERAL; // {x} never matches "/" alone
        }
        if (b.kind() == Kind.WILDCARD) {
            return a.kind() == Kind.END ? Relation.DISJOINT : Relation.MORE_SPECIFIC;
        }
        if (a.kind() == Kind.END || b.kind() == Kind.END) {
            return a.kind() == b.kind() ? Relation.EQUIVALENT : Relation.DISJOINT;
        }
        return a.text().equals(b.text()) ? Relation.EQUIVALENT : Relation.DISJOINT;
    }

    /** Why two conflicting patterns conflict, with example paths, for the registration error. */
    String describeConflict(Pattern other) {
        Relation methods = compareMethods(other);
        Relation paths = comparePaths(other);
        if (methods.and(paths) == Relation.EQUIVALENT) {
            return "\"" + text + "\" matches the same requests as \"" + other.text + "\"";
        }
        if (paths == Relation.OVERLAPS) {
            return "\"" + text + "\" and \"" + other.text + "\" both match some paths, like \""
                    + Examples.common(this, other) + "\", but neither is more specific: \"" + text + "\" matches \""
                    + Examples.difference(this, other) + "\" and \"" + other.text + "\" does not; \"" + other.text
                    + "\" matches \"" + Examples.difference(other, this) + "\" and \"" + text + "\" does not";
        }
        if (methods == Relation.MORE_GENERAL && paths == Relation.MORE_SPECIFIC) {
            return "\"" + text + "\" matches more methods than \"" + other.text + "\" but has a more specific path";
        }
        return "\"" + text + "\" matches fewer methods than \"" + other.text + "\" but has a more general path";
    }

    @Override
    public String toString() {
        return text;
    }
}
