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

    private PublishedFigures() {
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
        return java.util.stream.Stream.concat(REUSE.stream(), POOL.stream())
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
