package dev.shuttle.server.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.shuttle.server.FakeExchange;
import dev.shuttle.server.FakeExchange.Recorded;
import dev.shuttle.server.Handler;
import dev.shuttle.server.Middleware;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Go 1.22 ServeMux semantics: which pattern serves which request, and which registrations are refused. */
class RouterTest {
    /** A handler that answers with its own pattern and the path values it was given. */
    private static Handler named(String pattern, String... wildcards) {
        return (request, response) -> {
            StringBuilder text = new StringBuilder(pattern);
            for (String name : wildcards) {
                text.append(' ').append(name).append('=').append(request.pathValue(name));
            }
            response.send(text.toString());
        };
    }

    private static Router router(String... patterns) {
        Router router = new Router();
        for (String pattern : patterns) {
            router.handle(pattern, named(pattern, wildcards(pattern)));
        }
        return router;
    }

    private static String[] wildcards(String pattern) {
        List<String> names = new ArrayList<>();
        for (String part : pattern.split("/")) {
            if (part.startsWith("{") && !part.equals("{$}")) {
                names.add(part.substring(1, part.length() - 1).replace("...", ""));
            }
        }
        return names.toArray(String[]::new);
    }

    private static Recorded serve(Router router, String method, String target, String host) throws Exception {
        return FakeExchange.serve(router, FakeExchange.request(method, target, "Host", host));
    }

    /** The patterns of Go's documentation and tests, and the request each must pick. */
    private static final String[] PATTERNS = {
        "/", "/index.html", "GET /static/", "example.com/", "example.com/{$}", "/b/{bucket}/o/{objectname...}",
        "/images/", "/images/thumbnails/", "GET /posts/{id}", "GET /posts/latest", "POST /posts/",
        "/a/{x}/c", "/a/b/z", "/files/{path...}", "HEAD /head/only", "GET /both/{$}", "/item/{id}/",
    };

    static Stream<Arguments> precedence() {
        return Stream.of(
                // method, target, host, the pattern that must answer (with its values)
                Arguments.of("GET", "/index.html", "x", "/index.html"),
                Arguments.of("POST", "/index.html", "x", "/index.html"),
                Arguments.of("GET", "/static/css/a.css", "x", "GET /static/"),
                Arguments.of("HEAD", "/static/css/a.css", "x", "GET /static/"), // HEAD by GET
                Arguments.of("POST", "/static/a", "x", "/"), // not GET: falls to the catch-all
                Arguments.of("GET", "/anything", "example.com", "example.com/"), // host wins
                Arguments.of("GET", "/", "example.com", "example.com/{$}"), // {$}: only the root
                Arguments.of("GET", "/", "other.org", "/"),
                Arguments.of("GET", "/", "EXAMPLE.com:8080", "example.com/{$}"), // host without port or case
                Arguments.of("GET", "/b/mybucket/o/a/b/c", "x", "/b/{bucket}/o/{objectname...} bucket=mybucket"
                        + " objectname=a/b/c"),
                Arguments.of("GET", "/b/x%2Fy/o/a%2Fb", "x", "/b/{bucket}/o/{objectname...} bucket=x/y"
                        + " objectname=a/b"),
                Arguments.of("GET", "/images/logo.png", "x", "/images/"),
                Arguments.of("GET", "/images/thumbnails/logo.png", "x", "/images/thumbnails/"), // longer wins
                Arguments.of("GET", "/posts/7", "x", "GET /posts/{id} id=7"),
                Arguments.of("GET", "/posts/latest", "x", "GET /posts/latest"), // literal beats wildcard
                Arguments.of("POST", "/posts/new", "x", "POST /posts/"),
                Arguments.of("GET", "/a/b/z", "x", "/a/b/z"),
                Arguments.of("GET", "/a/b/c", "x", "/a/{x}/c x=b"), // the literal b leads nowhere: back to {x}
                Arguments.of("GET", "/a/z/c", "x", "/a/{x}/c x=z"),
                Arguments.of("GET", "/files/", "x", "/files/{path...} path="),
                Arguments.of("GET", "/files/a%20b/c+d", "x", "/files/{path...} path=a b/c+d"),
                Arguments.of("HEAD", "/head/only", "x", "HEAD /head/only"),
                Arguments.of("GET", "/both/", "x", "GET /both/{$}"),
                Arguments.of("GET", "/item/5/", "x", "/item/{id}/ id=5"),
                Arguments.of("GET", "/item/5/more", "x", "/item/{id}/ id=5"));
    }

    @ParameterizedTest(name = "{0} {2}{1} -> {3}")
    @MethodSource("precedence")
    void theMostSpecificPatternServes(String method, String target, String host, String expected) throws Exception {
        Recorded response = serve(router(PATTERNS), method, target, host);
        assertThat(response.status()).isEqualTo(200);
        assertThat(response.bodyText()).isEqualTo(expected);
    }

    static Stream<Arguments> conflicts() {
        return Stream.of(
                Arguments.of("/a", "/a"),
                Arguments.of("GET /a", "GET /a"),
                Arguments.of("/posts/{id}", "/{resource}/latest"),
                Arguments.of("/a/{x}", "/a/{y}"),
                Arguments.of("/a/{x...}", "/a/"),
                Arguments.of("GET /a/{x}", "/a/b"), // fewer methods, more general path
                Arguments.of("/a/{x}/b", "/a/c/{y}"),
                Arguments.of("HEAD /x/{y}", "GET /x/z"),
                Arguments.of("/{$}", "/{$}"),
                Arguments.of("example.com/a/{x}", "example.com/{y}/b"));
    }

    @ParameterizedTest(name = "{0} vs {1}")
    @MethodSource("conflicts")
    void conflictingPatternsAreRefusedNamingBoth(String first, String second) {
        Router router = new Router().handle(first, named(first));
        assertThatThrownBy(() -> router.handle(second, named(second)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("\"" + second + "\"")
                .hasMessageContaining("\"" + first + "\"");
    }

    @Test
    void aConflictMessageGivesExamplePaths() {
        Router router = new Router().handle("/posts/{id}", named("a"));
        assertThatThrownBy(() -> router.handle("/{resource}/latest", named("b")))
                .hasMessageContaining("like \"/posts/latest\"")
                .hasMessageContaining("matches \"/resource/latest\"")
                .hasMessageContaining("matches \"/posts/id\"");
    }

    static Stream<Arguments> compatible() {
        return Stream.of(
                Arguments.of("/a/b", "/a/{x}"),
                Arguments.of("GET /a", "/a"),
                Arguments.of("GET /a", "HEAD /a"),
                Arguments.of("GET /a", "POST /a"),
                Arguments.of("/a/", "/a/{$}"),
                Arguments.of("/a/{x}", "/a/"),
                Arguments.of("example.com/a/{x}", "/{y}/b"), // host wins: no conflict
                Arguments.of("a.com/x", "b.com/x"),
                Arguments.of("/{x}", "/{$}"),
                Arguments.of("/a/{x...}", "/a/b/{y}"));
    }

    @ParameterizedTest(name = "{0} and {1}")
    @MethodSource("compatible")
    void patternsWithAClearWinnerMayBothBeRegistered(String first, String second) {
        new Router().handle(first, named(first)).handle(second, named(second));
        new Router().handle(second, named(second)).handle(first, named(first)); // and in the other order
    }

    static Stream<Arguments> malformed() {
        return Stream.of("", "no-slash", "GET", "/{x", "/a{x}", "/{$}/more", "/{x...}/more", "/{1x}",
                "/{x}/{x}", "/{}", "BAD(METHOD) /", "GET /a//b", "GET /a/../b", "/./a", "host{x}/").map(Arguments::of);
    }

    @ParameterizedTest(name = "\"{0}\"")
    @MethodSource("malformed")
    void malformedPatternsAreRefused(String pattern) {
        assertThatThrownBy(() -> new Router().handle(pattern, named(pattern)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void onlyTheMethodDiffersIs405WithAllow() throws Exception {
        Router router = router("GET /items/{id}", "DELETE /items/{id}", "POST /items");
        Recorded response = serve(router, "PUT", "/items/3", "x");
        assertThat(response.status()).isEqualTo(405);
        assertThat(response.header("Allow")).isEqualTo("DELETE, GET, HEAD");
        assertThat(serve(router, "PUT", "/nothing", "x").status()).isEqualTo(404);
    }

    @Test
    void aPathWithoutItsTrailingSlashIsRedirectedToIt() throws Exception {
        Router router = router("/images/", "POST /upload/");
        Recorded get = serve(router, "GET", "/images?size=2", "x");
        assertThat(get.status()).isEqualTo(301);
        assertThat(get.header("Location")).isEqualTo("/images/?size=2");
        Recorded post = serve(router, "POST", "/upload", "x");
        assertThat(post.status()).isEqualTo(308); // keeps the method and its body
        assertThat(post.header("Location")).isEqualTo("/upload/");
    }

    @Test
    void aCatchAllDoesNotHideTheTrailingSlashRedirect() throws Exception {
        Router router = router("/", "/images/");
        assertThat(serve(router, "GET", "/images", "x").header("Location")).isEqualTo("/images/");
        assertThat(serve(router, "GET", "/other", "x").bodyText()).isEqualTo("/");
    }

    @Test
    void uncleanPathsAreRedirectedToTheirCleanForm() throws Exception {
        Router router = router("/a/b");
        Recorded response = serve(router, "GET", "/x/../a//b?q=1", "x");
        assertThat(response.status()).isEqualTo(301);
        assertThat(response.header("Location")).isEqualTo("/a/b?q=1");
        // A path cannot climb above the root, and a redirect never points at another host ("//evil").
        assertThat(serve(router, "GET", "/../../a/b", "x").header("Location")).isEqualTo("/a/b");
        assertThat(serve(router, "GET", "//evil.example/a", "x").header("Location")).isEqualTo("/evil.example/a");
    }

    @Test
    void aMalformedEscapeIs400() throws Exception {
        Recorded response = serve(router("/{x}"), "GET", "/%zz", "x");
        assertThat(response.status()).isEqualTo(400);
        assertThat(serve(router("/{x}"), "GET", "/%c0%ae", "x").status()).isEqualTo(400);
    }

    @Test
    void noMatchIs404OrTheNotFoundHandler() throws Exception {
        assertThat(serve(router("/a"), "GET", "/b", "x").status()).isEqualTo(404);
        Router custom = router("/a").notFound((request, response) -> response.send(404, "custom"));
        assertThat(serve(custom, "GET", "/b", "x").bodyText()).isEqualTo("custom");
    }

    @Test
    void middlewareRunsOutermostFirstGlobalAroundRoute() throws Exception {
        List<String> order = new ArrayList<>();
        Middleware global1 = next -> (request, response) -> {
            order.add("g1");
            next.handle(request, response);
        };
        Middleware global2 = next -> (request, response) -> {
            order.add("g2");
            next.handle(request, response);
        };
        Middleware route = next -> (request, response) -> {
            order.add("r");
            next.handle(request, response);
        };
        Router router = new Router().use(global1)
                .handle("/a", (request, response) -> order.add("handler"), route)
                .use(global2);
        serve(router, "GET", "/a", "x");
        assertThat(order).containsExactly("g1", "g2", "r", "handler");
        order.clear();
        serve(router, "GET", "/missing", "x"); // global middleware sees 404s too
        assertThat(order).containsExactly("g1", "g2");
    }

    @Test
    void registeringAfterTheFirstRequestIsRefused() throws Exception {
        Router router = router("/a");
        serve(router, "GET", "/a", "x");
        assertThatThrownBy(() -> router.handle("/b", named("/b"))).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> router.use(next -> next)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void nestedRoutersKeepTheOuterPathValues() throws Exception {
        Router inner = new Router().handle("/{id}", (request, response) ->
                response.send(request.pathValue("tenant") + ":" + request.pathValue("id")));
        Router outer = new Router().handle("/t/{tenant}/{rest...}",
                StripPrefix.of("/t").wrap((request, response) -> {
                    String rest = "/" + request.pathValue("rest");
                    inner.handle(new dev.shuttle.server.ForwardingRequest(request) {
                        @Override
                        public String path() {
                            return rest;
                        }
                    }, response);
                }));
        assertThat(serve(outer, "GET", "/t/acme/42", "x").bodyText()).isEqualTo("acme:42");
    }

    @Test
    void stripPrefixHandsTheRestOn() throws Exception {
        Handler echo = (request, response) -> response.send(request.path() + " " + request.target());
        Handler stripped = StripPrefix.of("/static").wrap(echo);
        assertThat(FakeExchange.serve(stripped, FakeExchange.request("GET", "/static/a/b.css?v=1")).bodyText())
                .isEqualTo("/a/b.css /a/b.css?v=1");
        assertThat(FakeExchange.serve(stripped, FakeExchange.request("GET", "/other")).status()).isEqualTo(404);
    }
}
