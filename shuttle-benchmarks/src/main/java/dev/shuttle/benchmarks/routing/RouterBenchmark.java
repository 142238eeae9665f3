package dev.shuttle.benchmarks.routing;

import dev.shuttle.server.ConnectionInfo;
import dev.shuttle.server.Handler;
import dev.shuttle.server.Request;
import dev.shuttle.server.Response;
import dev.shuttle.server.routing.Router;
import dev.shuttle.wire.Headers;
import dev.shuttle.wire.HttpVersion;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Routing one request among {@code routes} patterns: Shuttle's {@link Router} (a segment tree: the cost follows the
 * path's length, not the number of routes) beside a linear scan that tries every pattern and keeps the most specific
 * match (what a hand-written router does). Each route count gets three requests: a literal-and-wildcard route
 * registered last, one in the middle, and a path no route matches (the scan's worst case, the tree's 404).
 *
 * <p>Run: {@code mvn -B -pl shuttle-benchmarks -am package -DskipTests}, then
 * {@code java -cp shuttle-benchmarks/target/classes:$(cat shuttle-benchmarks/target/classpath.txt)
 * org.openjdk.jmh.Main RouterBenchmark}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class RouterBenchmark {
    @Param({"10", "1000", "10000"})
    int routes;

    @Param({"last", "middle", "missing"})
    String target;

    private Router router;
    private LinearRouter linear;
    private Request request;
    private final Response response = new NoResponse();
    private Blackhole sink;

    @Setup
    public void setUp(Blackhole blackhole) {
        this.sink = blackhole;
        router = new Router();
        linear = new LinearRouter();
        Handler matched = (request, response) -> sink.consume(request.pathValue("id"));
        router.notFound((request, response) -> sink.consume(request));
        // Four shapes per resource, so both routers see literals, wildcards and rests at every depth.
        for (int i = 0; i < routes / 4; i++) {
            for (String pattern : List.of("GET /api/v1/resource" + i + "/{id}", "POST /api/v1/resource" + i,
                    "GET /api/v1/resource" + i + "/{id}/items/{item}", "/static/r" + i + "/{path...}")) {
                router.handle(pattern, matched);
                linear.add(pattern, matched);
            }
        }
        int resource = switch (target) {
            case "last" -> routes / 4 - 1;
            case "middle" -> routes / 8;
            default -> -1;
        };
        String path = resource < 0 ? "/api/v1/nothing/here" : "/api/v1/resource" + resource + "/42/items/7";
        request = new GetRequest(path);
    }

    @Benchmark
    public void router() throws Exception {
        router.handle(request, response);
    }

    @Benchmark
    public void linearScan() throws Exception {
        linear.handle(request, response, sink);
    }

    /** The baseline: every pattern tried in turn, the one with the most literal segments kept. */
    static final class LinearRouter {
        private record Route(String method, String[] segments, boolean rest, Handler handler) {
        }

        private final List<Route> routes = new ArrayList<>();

        void add(String pattern, Handler handler) {
            int space = pattern.indexOf(' ');
            String method = space < 0 ? "" : pattern.substring(0, space);
            String path = pattern.substring(space + 1);
            boolean rest = path.endsWith("...}");
            String[] segments = path.substring(1).split("/");
            routes.add(new Route(method, rest ? java.util.Arrays.copyOf(segments, segments.length - 1) : segments,
                    rest, handler));
        }

        void handle(Request request, Response response, Blackhole sink) throws Exception {
            String[] path = request.path().substring(1).split("/");
            Route best = null;
            int bestScore = -1;
            for (Route route : routes) {
                if (!route.method.isEmpty() && !route.method.equals(request.method())) {
                    continue;
                }
                if (route.rest ? path.length < route.segments.length : path.length != route.segments.length) {
                    continue;
                }
                int score = 0;
                boolean matches = true;
                for (int i = 0; i < route.segments.length && matches; i++) {
                    String segment = route.segments[i];
                    if (segment.startsWith("{")) {
                        continue;
                    }
                    matches = segment.equals(path[i]);
                    score++;
                }
                if (matches && score > bestScore) {
                    best = route;
                    bestScore = score;
                }
            }
            if (best == null) {
                sink.consume(request);
            } else {
                best.handler.handle(request, response);
            }
        }
    }

    /** A GET for {@code path} with a Host: what the router reads, nothing else. */
    private record GetRequest(String path) implements Request {
        private static final Headers HEADERS = Headers.of("Host", "bench.example");

        @Override
        public String method() {
            return "GET";
        }

        @Override
        public String target() {
            return path;
        }

        @Override
        public String query() {
            return null;
        }

        @Override
        public HttpVersion version() {
            return HttpVersion.HTTP_1_1;
        }

        @Override
        public Headers headers() {
            return HEADERS;
        }

        @Override
        public InputStream body() {
            return InputStream.nullInputStream();
        }

        @Override
        public long contentLength() {
            return 0;
        }

        @Override
        public Headers trailers() {
            return Headers.EMPTY;
        }

        @Override
        public InetSocketAddress remoteAddress() {
            return null;
        }

        @Override
        public ConnectionInfo connection() {
            return null;
        }
    }

    /** The handlers write nothing; a 404 or 405 would, into nothing. */
    private static final class NoResponse implements Response {
        @Override
        public Response status(int status) {
            return this;
        }

        @Override
        public int status() {
            return 200;
        }

        @Override
        public Response header(String name, String value) {
            return this;
        }

        @Override
        public Response addHeader(String name, String value) {
            return this;
        }

        @Override
        public Response removeHeader(String name) {
            return this;
        }

        @Override
        public Headers headers() {
            return Headers.EMPTY;
        }

        @Override
        public Response contentLength(long length) {
            return this;
        }

        @Override
        public Response trailers(Headers trailers) {
            return this;
        }

        @Override
        public OutputStream body() {
            return OutputStream.nullOutputStream();
        }

        @Override
        public void flush() {
        }

        @Override
        public boolean isCommitted() {
            return false;
        }
    }
}
