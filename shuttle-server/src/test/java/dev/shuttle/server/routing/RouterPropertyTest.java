package dev.shuttle.server.routing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.server.FakeExchange;
import dev.shuttle.server.routing.Pattern.Kind;
import dev.shuttle.server.routing.Pattern.Relation;
import dev.shuttle.server.routing.Pattern.Segment;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The tree against the definition: for random sets of patterns (conflicting ones refused) and random requests, the
 * router picks exactly the pattern a brute-force search over all of them finds, the most specific one that matches
 * (host patterns first), and 404/405 when none does.
 */
class RouterPropertyTest {
    @Property(tries = 300)
    void theTreePicksWhatTheDefinitionPicks(@ForAll("patternSets") List<String> candidates,
                                            @ForAll("requests") List<String[]> requests) throws Exception {
        Router router = new Router();
        List<Pattern> registered = new ArrayList<>();
        for (String text : candidates) {
            try {
                router.handle(text, (request, response) -> response.send(text));
                registered.add(Pattern.parse(text));
            } catch (IllegalArgumentException conflict) {
                // a conflict must really be one with a registered pattern
                Pattern refused = Pattern.parse(text);
                assertThat(registered).anyMatch(p -> p.conflictsWith(refused));
            }
        }
        for (String[] request : requests) {
            String method = request[0];
            String host = request[1];
            String path = request[2];
            Pattern expected = mostSpecific(registered, method, host, path);
            var response = FakeExchange.serve(router, FakeExchange.request(method, path, "Host", host));
            Pattern slashed = path.endsWith("/") ? null : mostSpecific(registered, method, host, path + "/");
            if ((expected == null || !exact(expected, path)) && slashed != null && exact(slashed, path + "/")) {
                // Go's rule: /dir served only inexactly (or not at all) while /dir/ has an exact route
                assertThat(response.status()).as("%s %s%s", method, host, path).isIn(301, 308);
                assertThat(response.header("Location")).isEqualTo(path + "/");
            } else if (expected != null) {
                assertThat(response.bodyText()).as("%s %s%s", method, host, path).isEqualTo(expected.text);
            } else {
                assertThat(response.status()).as("%s %s%s", method, host, path).isIn(301, 308, 404, 405);
                if (response.status() == 301 || response.status() == 308) {
                    assertThat(mostSpecific(registered, method, host, path + "/")).isNotNull();
                }
            }
        }
    }

    private static Pattern mostSpecific(List<Pattern> patterns, String method, String host, String path) {
        List<Pattern> matching = patterns.stream().filter(p -> matches(p, method, host, path)).toList();
        List<Pattern> withHost = matching.stream().filter(p -> !p.host.isEmpty()).toList();
        List<Pattern> pool = withHost.isEmpty() ? matching : withHost;
        for (Pattern p : pool) {
            boolean beatsAll = pool.stream().allMatch(q -> q == p || p.compare(q) == Relation.MORE_SPECIFIC);
            if (beatsAll) {
                return p;
            }
        }
        assertThat(pool).as("two matching patterns with no winner were both registered").isEmpty();
        return null;
    }

    /** Exact unless a rest wildcard matched something: then a trailing-slash route may be meant instead. */
    private static boolean exact(Pattern p, String path) {
        if (p.last().kind() != Kind.REST) {
            return true;
        }
        long slashes = path.chars().filter(c -> c == '/').count();
        return path.endsWith("/") && p.segments.size() == slashes;
    }

    /** The definition of a match, segment by segment, without the tree. */
    private static boolean matches(Pattern p, String method, String host, String path) {
        if (!p.host.isEmpty() && !p.host.equals(host)) {
            return false;
        }
        if (!p.method.isEmpty() && !p.method.equals(method) && !(p.method.equals("GET") && method.equals("HEAD"))) {
            return false;
        }
        List<String> segments = new ArrayList<>(List.of(path.substring(1).split("/", -1)));
        boolean trailing = path.endsWith("/");
        if (trailing) {
            segments.removeLast(); // "/a/" -> [a] plus the trailing slash; "/" -> [] plus it
        }
        List<Segment> pattern = p.segments;
        for (int i = 0; i < pattern.size(); i++) {
            Segment s = pattern.get(i);
            switch (s.kind()) {
                case REST -> {
                    return i < segments.size() || trailing; // the rest after a slash, possibly empty
                }
                case END -> {
                    return i == segments.size() && trailing;
                }
                case LITERAL, WILDCARD -> {
                    if (i >= segments.size() || (s.kind() == Kind.LITERAL && !s.text().equals(segments.get(i)))) {
                        return false;
                    }
                }
            }
        }
        return pattern.size() == segments.size() && !trailing;
    }

    @Provide
    Arbitrary<List<String>> patternSets() {
        Arbitrary<String> method = Arbitraries.of("", "GET ", "POST ", "HEAD ");
        Arbitrary<String> host = Arbitraries.of("", "", "h.com");
        Arbitrary<String> segment = Arbitraries.of("a", "b", "{w}");
        Arbitrary<String> ending = Arbitraries.of("", "/", "/{$}", "/{rest...}");
        Arbitrary<String> pattern = Combinators.combine(method, host, segment.list().ofMaxSize(3), ending)
                .as((m, h, segments, end) -> {
                    StringBuilder path = new StringBuilder();
                    int n = 0;
                    for (String s : segments) {
                        path.append('/').append(s.equals("{w}") ? "{w" + n++ + "}" : s);
                    }
                    if (path.isEmpty() && end.isEmpty()) {
                        return m + h + "/";
                    }
                    return m + h + path + end;
                });
        return pattern.list().ofMinSize(1).ofMaxSize(12);
    }

    @Provide
    Arbitrary<List<String[]>> requests() {
        Arbitrary<String> method = Arbitraries.of("GET", "POST", "HEAD", "PUT");
        Arbitrary<String> host = Arbitraries.of("h.com", "other.org");
        Arbitrary<String> path = Combinators.combine(Arbitraries.of("a", "b", "c").list().ofMaxSize(4),
                Arbitraries.of(true, false)).as((segments, trailing) -> {
                    String joined = "/" + String.join("/", segments);
                    return trailing && !segments.isEmpty() ? joined + "/" : joined;
                });
        return Combinators.combine(method, host, path).as((m, h, p) -> new String[] {m, h, p}).list().ofSize(20);
    }
}
