package dev.shuttle.lab.reference;

import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Every Go figure the seeds publish for the lab's experiments, with its source. Cases with no published figure show
 * "-". These are the seeds' numbers, copied, never computed.
 */
public final class PublishedFigures {
    public static final String SEED_000 = "seeds/000_0d851b2adb64a5e2.txt";
    public static final String SEED_003 = "seeds/003_44d02c255124b96f.txt";
    public static final String SEED_004 = "seeds/004_b6429ed5b9f1a0b7.txt";
    public static final String SEED_001 = "seeds/001_7c4057807502dd30.txt";

    private static final String V1260 = "Go 1.26.2, 100 sequential requests, 20 ms dial delay";
    private static final String V1270 = "Go 1.27.0, 100 sequential requests, 20 ms dial delay";
    private static final String V1269 = "Go 1.26.9";
    private static final String V1272 = "Go 1.27.2";

    private static final String SHORT_VERSION = "The short version: for small responses, 100 requests went from 100 "
            + "connections to between 1 and 4. For responses over 256 KB, to slow responses, and for Connection: "
            + "close, the count stayed at 100.";
    private static final String EVERY_REQUEST = "With a 20 ms dial delay and a body under 256 KB, Go 1.26 opened a "
            + "new connection for every request, and Go 1.27 almost never did.";
    private static final String AT_THE_LIMIT = "Notice the 11 and 26 at the limit. A body just under 256 KB takes "
            + "real time to drain, even on loopback, and the next request often started before the drain finished.";
    private static final String PAUSE = "The 10 ms pause is the interesting row. A drain that needs 10 ms finishes "
            + "well inside the 50 ms limit, yet 40 of 100 requests still dialed, because the next request raced the "
            + "drain again.";
    private static final String JSON_CL = "With a Content-Length, both versions used 1 connection.";
    private static final String JSON_CHUNKED = "With chunked encoding, Go 1.26 opened 100 connections and Go 1.27 "
            + "opened 1.";
    private static final String STATUS_ONLY_2K = "On Go 1.27.2 we saw 97 to 99 reused of 100 across 20 runs; the "
            + "misses are the race in the third rule above. Go 1.26.9 printed 0 of 100.";

    private static final List<PublishedFigure> REUSE = List.of(
            f("cl-1k", GoRelease.GO_1_26, "100", V1260, SEED_000, EVERY_REQUEST),
            f("cl-1k", GoRelease.GO_1_27, "1-4", V1270, SEED_000, SHORT_VERSION),
            f("cl-2k", GoRelease.GO_1_26, "100", V1260, SEED_000, EVERY_REQUEST),
            f("cl-2k", GoRelease.GO_1_27, "1-4", V1270, SEED_000, SHORT_VERSION),
            f("cl-2k", GoRelease.GO_1_27, "1-3", V1272 + ", status only, 20 runs of 100", SEED_003,
                    STATUS_ONLY_2K),
            f("cl-64k", GoRelease.GO_1_26, "100", V1260, SEED_000, EVERY_REQUEST),
            f("cl-64k", GoRelease.GO_1_27, "1-4", V1270, SEED_000, SHORT_VERSION),
            f("cl-200k", GoRelease.GO_1_26, "100", V1260, SEED_000, EVERY_REQUEST),
            f("cl-200k", GoRelease.GO_1_27, "11", V1270, SEED_000, AT_THE_LIMIT),
            f("cl-256k-1", GoRelease.GO_1_26, "100", V1260, SEED_000, EVERY_REQUEST),
            f("cl-256k-1", GoRelease.GO_1_27, "26", V1270, SEED_000, AT_THE_LIMIT),
            f("cl-256k+1", GoRelease.GO_1_26, "100", V1260, SEED_000, SHORT_VERSION),
            f("cl-256k+1", GoRelease.GO_1_27, "100", V1270, SEED_000, SHORT_VERSION),
            f("cl-1m", GoRelease.GO_1_26, "100", V1260, SEED_000, SHORT_VERSION),
            f("cl-1m", GoRelease.GO_1_27, "100", V1270, SEED_000, SHORT_VERSION),
            f("pause-10ms", GoRelease.GO_1_26, "100", V1260, SEED_000, SHORT_VERSION),
            f("pause-10ms", GoRelease.GO_1_27, "40", V1270, SEED_000, PAUSE),
            f("tail-100ms", GoRelease.GO_1_26, "100", V1260, SEED_000, SHORT_VERSION),
            f("tail-100ms", GoRelease.GO_1_27, "100", V1270, SEED_000, SHORT_VERSION),
            f("close", GoRelease.GO_1_26, "100", V1260, SEED_000, SHORT_VERSION),
            f("close", GoRelease.GO_1_27, "100", V1270, SEED_000, SHORT_VERSION),
            f("json-cl", GoRelease.GO_1_26, "1", V1260, SEED_000, JSON_CL),
            f("json-cl", GoRelease.GO_1_27, "1", V1270, SEED_000, JSON_CL),
            f("json-chunked", GoRelease.GO_1_26, "100", V1260, SEED_000, JSON_CHUNKED),
            f("json-chunked", GoRelease.GO_1_27, "1", V1270, SEED_000, JSON_CHUNKED),
            f("json-late-end", GoRelease.GO_1_26, "49 of 50", V1269 + ", 50 calls", SEED_003,
                    "When the server sent that marker 5 ms later, 49 of 50 calls opened a new connection."),
            f("json-late-end", GoRelease.GO_1_27, "0 of 50", V1272 + ", 50 calls, 20 ms between calls", SEED_003,
                    "Go 1.27.2 drains that late marker. With 20 ms between calls, it opened 0 new connections in "
                            + "the same 50-call test."),
            f("throttle", GoRelease.GO_1_27, "20 of 20", V1272 + ", 20 calls", SEED_003,
                    "When our test server sent the same 200 KB body at about 10 Mbps (megabits per second), taking "
                            + "about 160 ms, Go 1.27.2 opened 20 new connections for 20 calls."),
            f("eof-control", GoRelease.GO_1_26, "1 of 12", "Go 1.26.4, 12 requests, TLS", SEED_004,
                    "EOF까지 읽은 baseline은 두 version 모두 한 연결을 재사용했다. (The read-to-EOF baseline reused "
                            + "one connection on both versions.)"),
            f("eof-control", GoRelease.GO_1_27, "1 of 12", "Go 1.27.0, 12 requests, TLS", SEED_004,
                    "EOF까지 읽은 baseline은 두 version 모두 한 연결을 재사용했다. (The read-to-EOF baseline reused "
                            + "one connection on both versions.)"));

    private static final List<PublishedFigure> POOL = List.of(
            f("pool-bursts", GoRelease.GO_1_27, "28 per burst after the first", V1272 + ", DefaultTransport, "
                    + "5 bursts of 30", SEED_003, "In our test of 5 such bursts, each burst after the first opened "
                    + "28 new connections, because only 2 could wait in the pool."),
            f("pool-bursts-32-idle", GoRelease.GO_1_27, "0 per burst", V1272 + ", MaxIdleConnsPerHost 32",
                    SEED_003, "Raising the per-host limit, MaxIdleConnsPerHost, to 32 dropped that to 0 new "
                            + "connections per burst."),
            f("per-call-client", GoRelease.GO_1_26, "0 of 100 open", V1269 + ", 100 calls", SEED_003,
                    "In our test of 100 such calls, Go 1.26.9 closed every connection."),
            f("per-call-client", GoRelease.GO_1_27, "100 of 100 open", V1272 + ", 100 calls", SEED_003,
                    "On Go 1.27.2, all 100 stayed open on the server."));

    private static final String GO_1273 = "Go 1.27.3, idle h2c connections";
    private static final String GO_128_ON = "Go 1.28 (rev 5c51011e), parking on, idle h2c connections";
    private static final String GO_128 = "Go 1.28 (rev 5c51011e), parking on vs GODEBUG=http2serveparking=0";
    private static final String IDLE_RSS = "An idle connection costs about 34 KiB of RSS on Go 1.27 and 22.5 KiB with "
            + "parking, roughly 11 KiB less each.";
    private static final String IDLE_GOROUTINES = "It is two per connection on Go 1.27 and with parking off, 20,004 "
            + "at 10,000 connections, and exactly one per connection with parking on, 10,004.";
    private static final String IDLE_STACKS = "Most of that comes straight out of goroutine stacks, which drop from "
            + "12 KiB to 4 KiB per connection: one goroutine instead of two.";
    private static final String IDLE_HEAP = "The Go heap doesn\u2019t move. About 17 KiB per connection is connection "
            + "state and buffers, and parking doesn\u2019t touch any of that.";
    private static final String IDLE_SAVING = "With parking on, the server needs about 30% less memory once there are "
            + "a few thousand idle connections: 52 MiB less at 5,000, 101 MiB less at 10,000.";
    private static final String MOSTLY_IDLE_RATE = "That adds up to about 920 requests per second, far more than my "
            + "API sees on an average day, spread across connections that are idle most of the time.";
    private static final String MOSTLY_IDLE_COST = "Memory drops by 61 MiB, about 27%, because between requests the "
            + "connections are as idle as before. In exchange, the server burns about 2 points more CPU, around 8% "
            + "relative, and the median request takes 30 \u00b5s longer, which is the cost of waking the serve loop on "
            + "every request.";
    private static final String MOSTLY_IDLE_TAIL = "The p99 moves by about 0.15 ms but wobbles between runs, while the "
            + "p99.9 actually came out lower with parking, so I wouldn\u2019t read much into the tail.";
    private static final String HOT_RATE = "If anything, parking came out ahead in all three rounds, with 39.6k "
            + "requests per second against 35.6k with parking off and a lower p50 and p99.";
    private static final String HOT_CPU = "Client and server shared the same laptop, the server was capped at two Ps, "
            + "and with parking on it managed to use a bit more of its CPU allowance (1.77 cores against 1.69), which "
            + "explains a good part of the throughput.";

    /** Seed 001, idle HTTP/2 connections: per connection unless the case id says otherwise. */
    private static final List<PublishedFigure> IDLE = List.of(
            f("idle-rss-per-connection", GoRelease.GO_1_27, "34 KiB", GO_1273, SEED_001, IDLE_RSS),
            f("idle-rss-per-connection", GoRelease.GO_1_28, "22.5 KiB", GO_128_ON, SEED_001, IDLE_RSS),
            f("idle-heap-per-connection", GoRelease.GO_1_27, "17 KiB", GO_1273, SEED_001, IDLE_HEAP),
            f("idle-heap-per-connection", GoRelease.GO_1_28, "17 KiB", GO_128_ON, SEED_001, IDLE_HEAP),
            f("idle-threads-per-connection", GoRelease.GO_1_27, "2 goroutines", GO_1273 + " (and 1.28, parking off)",
                    SEED_001, IDLE_GOROUTINES),
            f("idle-threads-per-connection", GoRelease.GO_1_28, "1 goroutine", GO_128_ON, SEED_001,
                    IDLE_GOROUTINES),
            f("idle-threads-at-10000", GoRelease.GO_1_27, "20,004 goroutines", GO_1273 + ", 10,000 connections",
                    SEED_001, IDLE_GOROUTINES),
            f("idle-threads-at-10000", GoRelease.GO_1_28, "10,004 goroutines", GO_128_ON + ", 10,000 connections",
                    SEED_001, IDLE_GOROUTINES),
            f("idle-stacks-per-connection", GoRelease.GO_1_27, "12 KiB", GO_1273, SEED_001, IDLE_STACKS),
            f("idle-stacks-per-connection", GoRelease.GO_1_28, "4 KiB", GO_128_ON, SEED_001, IDLE_STACKS),
            f("idle-rss-saving", GoRelease.GO_1_28, "52 MiB less at 5,000; 101 MiB less at 10,000 (about 30%)",
                    GO_128, SEED_001, IDLE_SAVING));

    /** Seed 001, the two busy shapes: parking on against parking off on the same Go 1.28 binary. */
    private static final List<PublishedFigure> BUSY = List.of(
            f("mostly-idle-rate", GoRelease.GO_1_28, "about 920 requests/s", "5,000 connections, one request "
                    + "every 5 s each", SEED_001, MOSTLY_IDLE_RATE),
            f("mostly-idle-cost", GoRelease.GO_1_28, "RSS -61 MiB (-27%); CPU +2 points (+8%); p50 +30 \u00b5s",
                    GO_128 + ", 5,000 connections", SEED_001, MOSTLY_IDLE_COST),
            f("mostly-idle-tail", GoRelease.GO_1_28, "p99 +0.15 ms (noisy); p99.9 lower with parking",
                    GO_128 + ", 5,000 connections", SEED_001, MOSTLY_IDLE_TAIL),
            f("hot-rate", GoRelease.GO_1_28, "39.6k requests/s on, 35.6k off", GO_128
                    + ", 32 connections x 4 streams, 20 s, 3 rounds", SEED_001, HOT_RATE),
            f("hot-cpu", GoRelease.GO_1_28, "1.77 cores on, 1.69 off", GO_128 + ", GOMAXPROCS=2", SEED_001,
                    HOT_CPU));

    private PublishedFigures() {
    }

    /** Seed 001's figures for {@code lab idle}. */
    public static List<PublishedFigure> idle() {
        return IDLE;
    }

    /** Seed 001's figures for {@code lab busy}. */
    public static List<PublishedFigure> busy() {
        return BUSY;
    }

    /** Every published figure for {@code lab reuse}. */
    public static List<PublishedFigure> reuse() {
        return REUSE;
    }

    /** Every published figure for {@code lab pool}. */
    public static List<PublishedFigure> pool() {
        return POOL;
    }

    /** The figures for one case and release, in the order above (there may be several, from different seeds). */
    public static List<PublishedFigure> of(String caseId, GoRelease release) {
        return java.util.stream.Stream.of(REUSE, POOL, IDLE, BUSY).flatMap(List::stream)
                .filter(f -> f.caseId().equals(caseId) && f.release() == release)
                .toList();
    }

    /** The figures' values joined for a table cell, or "-" when the seeds give none. */
    public static String cell(String caseId, GoRelease release) {
        List<PublishedFigure> figures = of(caseId, release);
        return figures.isEmpty() ? "-" : figures.stream().map(PublishedFigure::value)
                .collect(Collectors.joining("; "));
    }

    /** The first figure, if any. */
    public static Optional<PublishedFigure> first(String caseId, GoRelease release) {
        return of(caseId, release).stream().findFirst();
    }

    private static PublishedFigure f(String caseId, GoRelease release, String value, String version, String seed,
                                     String sentence) {
        return new PublishedFigure(caseId, release, value, version, seed, sentence);
    }
}
