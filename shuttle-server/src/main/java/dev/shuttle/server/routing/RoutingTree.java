package dev.shuttle.server.routing;

import dev.shuttle.server.Handler;
import dev.shuttle.server.routing.Pattern.Kind;
import dev.shuttle.server.routing.Pattern.Segment;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The decision tree behind {@link Router}: host, then method, then one level per path segment. At each level a
 * literal child is tried before the single wildcard, and the wildcard before a rest wildcard; registration refuses
 * every pair of patterns where that order could pick the less specific one (Go's conflict rule), so the first match
 * found is the most specific. A lookup visits one node per segment, plus the branches it has to back out of when a
 * literal leads nowhere and a wildcard beside it must be tried.
 *
 * <p>Not thread-safe: {@link Router} builds it before serving and only reads it after.
 */
final class RoutingTree {
    /** A registered pattern and its handler (its own middleware already applied). */
    record Route(Pattern pattern, Handler handler) {
    }

    /** A lookup's result: the route, its wildcard values in pattern order, and whether a rest matched nothing. */
    record Match(Route route, String[] values, boolean exact) {
    }

    private static final class Node {
        /** Literal children by decoded segment; null while there are none. */
        Map<String, Node> literals;
        Node wildcard;
        /** The child for {@code {$}}: the path ends with its trailing slash here. */
        Node end;
        /** A pattern whose rest wildcard starts here (at most one per node, by the conflict rule). */
        Route rest;
        /** A pattern that ends here. */
        Route route;

        Node literal(String text) {
            if (literals == null) {
                literals = new HashMap<>(4);
            }
            return literals.computeIfAbsent(text, t -> new Node());
        }
    }

    /** Host ("" for patterns without one) → method ("" for every method) → path tree. */
    private final Map<String, Map<String, Node>> hosts = new HashMap<>();

    /** Adds {@code route}, first refusing it if it conflicts with one already here. */
    void add(Route route) {
        Pattern pattern = route.pattern();
        for (Route other : overlappingRoutes(pattern)) {
            if (pattern.conflictsWith(other.pattern())) {
                throw new IllegalArgumentException("pattern \"" + pattern + "\" conflicts with pattern \""
                        + other.pattern() + "\": " + pattern.describeConflict(other.pattern()));
            }
        }
        Node node = hosts.computeIfAbsent(pattern.host, h -> new HashMap<>())
                .computeIfAbsent(pattern.method, m -> new Node());
        for (Segment segment : pattern.segments) {
            switch (segment.kind()) {
                case LITERAL -> node = node.literal(segment.text());
                case WILDCARD -> node = node.wildcard == null ? (node.wildcard = new Node()) : node.wildcard;
                case END -> node = node.end == null ? (node.end = new Node()) : node.end;
                case REST -> {
                    node.rest = route;
                    return;
                }
            }
        }
        node.route = route;
    }

    /** The most specific route for the request, or null. */
    Match match(String host, String method, RequestPath path) {
        if (!host.isEmpty()) {
            Match match = matchMethod(hosts.get(host), method, path);
            if (match != null) {
                return match;
            }
        }
        return matchMethod(hosts.get(""), method, path);
    }

    private static Match matchMethod(Map<String, Node> methods, String method, RequestPath path) {
        if (methods == null) {
            return null;
        }
        Match match = matchPath(methods.get(method), path, 0, new ArrayList<>(2));
        if (match == null && method.equals("HEAD")) {
            match = matchPath(methods.get("GET"), path, 0, new ArrayList<>(2));
        }
        if (match == null) {
            match = matchPath(methods.get(""), path, 0, new ArrayList<>(2));
        }
        return match;
    }

    private static Match matchPath(Node node, RequestPath path, int i, List<String> values) {
        if (node == null) {
            return null;
        }
        if (i == path.count()) {
            if (!path.trailingSlash) {
                return node.route == null ? null : found(node.route, values, null, true);
            }
            if (node.end != null && node.end.route != null) {
                return found(node.end.route, values, null, true);
            }
            return node.rest == null ? null : found(node.rest, values, "", true);
        }
        String segment = path.segments[i];
        if (node.literals != null) {
            Match match = matchPath(node.literals.get(segment), path, i + 1, values);
            if (match != null) {
                return match;
            }
        }
        if (node.wildcard != null) {
            values.add(segment);
            Match match = matchPath(node.wildcard, path, i + 1, values);
            if (match != null) {
                return match;
            }
            values.removeLast();
        }
        return node.rest == null ? null : found(node.rest, values, path.restFrom(i), false);
    }

    private static Match found(Route route, List<String> values, String rest, boolean exact) {
        boolean named = rest != null && !route.pattern().last().text().isEmpty();
        String[] all = values.toArray(new String[values.size() + (named ? 1 : 0)]);
        if (named) {
            all[values.size()] = rest;
        }
        return new Match(route, all, exact);
    }

    /** The methods some route would serve for this host and path (GET implying HEAD), sorted; for 405's Allow. */
    Set<String> allowedMethods(String host, RequestPath path) {
        Set<String> methods = new TreeSet<>();
        for (String h : host.isEmpty() ? List.of("") : List.of(host, "")) {
            Map<String, Node> byMethod = hosts.get(h);
            if (byMethod == null) {
                continue;
            }
            byMethod.forEach((method, node) -> {
                if (!method.isEmpty() && matchPath(node, path, 0, new ArrayList<>(2)) != null) {
                    methods.add(method);
                }
            });
        }
        if (methods.contains("GET")) {
            methods.add("HEAD");
        }
        return methods;
    }

    /**
     * Routes of the same host whose paths could match a path {@code pattern} matches, under every method the two
     * could share: a superset of the ones it conflicts with, found by walking the tree along the pattern.
     */
    private List<Route> overlappingRoutes(Pattern pattern) {
        List<Route> found = new ArrayList<>();
        Map<String, Node> methods = hosts.get(pattern.host);
        if (methods == null) {
            return found;
        }
        methods.forEach((method, node) -> {
            if (pattern.method.isEmpty() || method.isEmpty() || method.equals(pattern.method)
                    || (method.equals("GET") && pattern.method.equals("HEAD"))
                    || (method.equals("HEAD") && pattern.method.equals("GET"))) {
                collect(node, pattern.segments, 0, found);
            }
        });
        return found;
    }

    private static void collect(Node node, List<Segment> segments, int i, List<Route> into) {
        if (node == null) {
            return;
        }
        if (i == segments.size()) {
            if (node.route != null) {
                into.add(node.route);
            }
            return;
        }
        Segment segment = segments.get(i);
        switch (segment.kind()) {
            case LITERAL -> {
                if (node.literals != null) {
                    collect(node.literals.get(segment.text()), segments, i + 1, into);
                }
                collect(node.wildcard, segments, i + 1, into);
            }
            case WILDCARD -> {
                if (node.literals != null) {
                    for (Node child : node.literals.values()) {
                        collect(child, segments, i + 1, into);
                    }
                }
                collect(node.wildcard, segments, i + 1, into);
            }
            case END -> {
                if (node.end != null && node.end.route != null) {
                    into.add(node.end.route);
                }
            }
            case REST -> {
                collectBelow(node, into);
                return; // collectBelow took node.rest
            }
        }
        if (node.rest != null) {
            into.add(node.rest);
        }
    }

    /** Every route matching a path that goes on past {@code node} (so not one that ends at it). */
    private static void collectBelow(Node node, List<Route> into) {
        if (node.rest != null) {
            into.add(node.rest);
        }
        if (node.end != null && node.end.route != null) {
            into.add(node.end.route);
        }
        List<Node> children = new ArrayList<>();
        if (node.literals != null) {
            children.addAll(node.literals.values());
        }
        if (node.wildcard != null) {
            children.add(node.wildcard);
        }
        for (Node child : children) {
            if (child.route != null) {
                into.add(child.route);
            }
            collectBelow(child, into);
        }
    }
}
