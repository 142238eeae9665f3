package dev.shuttle.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.client.testing.Await;
import dev.shuttle.client.testing.FixtureServer;
import dev.shuttle.client.testing.RecordingTrace;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The acceptance table: N sequential GETs that check the status and close the body unread, counting new
 * connections at Shuttle's own server, for each drain policy. Counts, never timings. N is 30 (20 for the slow
 * tail), so "100" in the table reads "N" here.
 *
 * <p>For the small bodies ({@link #ARRIVED_FIRST}) the client closes each body only once the server has finished
 * writing it, so every byte is in the client's socket: the default's promise there is the inline drain, which makes
 * the count exactly 1 whatever the scheduling. Whether a small body's last bytes are already in the socket when the
 * caller closes is otherwise loopback luck (a chunked 2 KiB body whose head the server flushed first sometimes was
 * not, and the hand-off rule then dialled a spare beside its background drain); that race and what it costs are the
 * hand-off rule's tests' (DialDelayHandOffTest, ConnectionPoolTest) and the lab's to measure.
 */
class AcceptanceTableTest {
    private static final int N = 30;
    private static final int BOUNDED_MAX = 10;
    /** Paths whose body the client closes only once the server finished writing it. */
    private static final Set<String> ARRIVED_FIRST = Set.of("/cl/1024", "/cl/2048", "/chunked/2048", "/json-chunked");
    private static FixtureServer server;

    /** How a case's connection count is judged. */
    record Expect(String text, int exactly, int atMost) {
        static Expect exactly(int n) {
            return new Expect("== " + n, n, n);
        }

        static Expect atMost(int n) {
            return new Expect("<= " + n, -1, n);
        }

        void check(long connections) {
            if (exactly >= 0) {
                assertThat(connections).as("new connections").isEqualTo(exactly);
            } else {
                assertThat(connections).as("new connections").isBetween(1L, (long) atMost);
            }
        }
    }

    enum Reader { UNREAD, JSON_DECODER, TO_EOF }

    enum Policy {
        NONE(DrainPolicy.none()),
        BOUNDED(DrainPolicy.bounded(DrainPolicy.DEFAULT_MAX_BYTES, DrainPolicy.DEFAULT_MAX_TIME)),
        DEFAULT(DrainPolicy.defaults());

        final DrainPolicy policy;

        Policy(DrainPolicy policy) {
            this.policy = policy;
        }
    }

    @BeforeAll
    static void start() throws IOException {
        server = new FixtureServer();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    static Stream<Arguments> table() {
        List<Stream<Arguments>> rows = new ArrayList<>();
        // bounded() reproduces Go 1.27: the next request dials at once and takes whichever connection is ready
        // first, so its count depends on who wins each race. Go measured 1-4 per 100; here 2-5 per 30 was seen, so
        // the bound is BOUNDED_MAX rather than 4 (this is the behaviour being compared against, not a target).
        for (String path : new String[] {"/cl/1024", "/cl/2048"}) {
            rows.add(row(path, Reader.UNREAD, N, Expect.exactly(N), Expect.atMost(BOUNDED_MAX), Expect.exactly(1)));
        }
        // 64 KiB is not all in the socket when the body closes: a drain slower than the first drain's grace (1 ms,
        // as long as a loopback dial) makes the hand-off rule dial a spare beside it (issue 14), which a loaded
        // machine sees now and then; the lab's count is 1, the rule's promise no more than bounded's.
        rows.add(row("/cl/65536", Reader.UNREAD, N, Expect.exactly(N), Expect.atMost(BOUNDED_MAX),
                Expect.atMost(BOUNDED_MAX)));
        // Just under the cap the drain takes about as long as a loopback dial, so on a loaded machine the hand-off
        // rule dials spares beside slow drains now and then (issue 14): the lab's median is 1; what the rule
        // promises, and the test holds it to, is no more connections than bounded's.
        rows.add(row("/cl/262143", Reader.UNREAD, N, Expect.exactly(N), Expect.atMost(N), Expect.atMost(BOUNDED_MAX)));
        // Past the cap the default drains only where a dial costs 5 ms or more and the drain is quicker (issue 14).
        // A loopback dial costs far less, so the lab counts 100 here, but a loaded machine can measure a slow first
        // dial: the test allows for it. DrainBudgetTest has the rule, DialDelayHandOffTest a dial that costs 20 ms.
        for (String path : new String[] {"/cl/262145", "/cl/1048576"}) {
            rows.add(row(path, Reader.UNREAD, N, Expect.exactly(N), Expect.exactly(N), Expect.atMost(N)));
        }
        rows.add(row("/chunked/2048", Reader.UNREAD, N, Expect.exactly(N), Expect.atMost(BOUNDED_MAX),
                Expect.exactly(1)));
        rows.add(row("/json-chunked", Reader.JSON_DECODER, N, Expect.exactly(N), Expect.atMost(BOUNDED_MAX),
                Expect.exactly(1)));
        rows.add(row("/close/2048", Reader.UNREAD, N, Expect.exactly(N), Expect.exactly(N), Expect.exactly(N)));
        rows.add(row("/pause/100/2048", Reader.UNREAD, 20, Expect.exactly(20), Expect.exactly(20),
                Expect.exactly(20)));
        rows.add(row("/cl/2048", Reader.TO_EOF, N, Expect.exactly(1), Expect.exactly(1), Expect.exactly(1)));
        return rows.stream().flatMap(r -> r);
    }

    private static Stream<Arguments> row(String path, Reader reader, int requests, Expect none, Expect bounded,
                                        Expect defaults) {
        return Stream.of(Arguments.of(path, reader, requests, Policy.NONE, none),
                Arguments.of(path, reader, requests, Policy.BOUNDED, bounded),
                Arguments.of(path, reader, requests, Policy.DEFAULT, defaults));
    }

    @ParameterizedTest(name = "{0} {1} x{2} {3}: {4}")
    @MethodSource("table")
    void newConnectionsPerCase(String path, Reader reader, int requests, Policy policy, Expect expect)
            throws Exception {
        RecordingTrace trace = new RecordingTrace();
        long before = server.newConnections();
        boolean arrivedFirst = ARRIVED_FIRST.contains(path) && reader != Reader.TO_EOF;
        long finishedBefore = server.responsesFinished();
        boolean closeReturnedBeforeOutcome = true;
        Request request = Request.get(server.uri(path));
        try (HttpClient client = HttpClient.builder().drainPolicy(policy.policy).trace(trace).build()) {
            for (int i = 0; i < requests; i++) {
                RecordingTrace own = new RecordingTrace();
                Response response = client.send(request.toBuilder().trace(own).build());
                assertThat(response.status()).isEqualTo(200);
                switch (reader) {
                    case UNREAD -> { }
                    case JSON_DECODER -> decodeOneObject(response.body());
                    case TO_EOF -> response.body().readAllBytes();
                }
                if (arrivedFirst) {
                    long finished = finishedBefore + i + 1;
                    Await.until("the server finished response " + (i + 1),
                            () -> server.responsesFinished() >= finished);
                }
                response.close();
                if (path.startsWith("/pause/100") && policy != Policy.NONE) {
                    // close() returned while the tail was still 100 ms away: its outcome could not be known yet.
                    closeReturnedBeforeOutcome &= own.closed.isEmpty();
                }
            }
            ClientInternals.awaitSettled(client);
            Await.until("every body's outcome reported", () -> trace.closed.size() == requests);
            long clientOpened = client.stats().connectionsOpened();
            Await.until("server saw every connection the client opened",
                    () -> server.newConnections() - before == clientOpened);
            long opened = server.newConnections() - before;
            System.out.printf("ACCEPTANCE %-16s %-12s %-8s new=%3d of %d  outcomes=%s discarded=%d%n", path,
                    reader, policy, opened, requests, outcomes(trace), trace.discarded());
            System.out.println("   hand-off waits=" + client.stats().handOffWaits() + " dials="
                    + client.stats().handOffDials() + " " + ClientInternals.pool(client).costs(request.origin()));
            expect.check(opened);
            assertThat(trace.closed).hasSize(requests);
            checkOutcomes(path, reader, policy, trace);
            if (arrivedFirst && policy == Policy.DEFAULT) {
                assertThat(trace.count(DrainOutcome.REUSED_INLINE)).as("every body was in the socket: drained inline")
                        .isEqualTo(requests);
            }
            if (path.startsWith("/pause/100")) {
                assertThat(closeReturnedBeforeOutcome).as("close() returned before the drain's outcome").isTrue();
            }
        }
    }

    private static void checkOutcomes(String path, Reader reader, Policy policy, RecordingTrace trace) {
        int requests = trace.closed.size();
        if (reader == Reader.TO_EOF) {
            assertThat(trace.count(DrainOutcome.COMPLETE)).isEqualTo(requests);
            return;
        }
        if (path.startsWith("/close/")) {
            assertThat(trace.count(DrainOutcome.SKIPPED_CLOSE)).isEqualTo(requests);
            assertThat(trace.discarded()).as("bytes drained").isZero();
            return;
        }
        if (policy == Policy.NONE) {
            assertThat(trace.count(DrainOutcome.SKIPPED_POLICY)).isEqualTo(requests);
            assertThat(trace.discarded()).isZero();
            return;
        }
        if (path.equals("/cl/262145") || path.equals("/cl/1048576")) {
            long length = Long.parseLong(path.substring("/cl/".length()));
            if (policy == Policy.DEFAULT) {
                // Closed at once, or drained (never past the body's end) where the origin's drains beat its dials.
                assertThat(trace.closed).allMatch(c -> c.outcome() == DrainOutcome.SKIPPED_LENGTH
                        ? c.bytesDiscarded() == 0 : c.bytesDiscarded() <= length);
                return;
            }
            // Declared above the cap: closed at once, nothing read beyond what had arrived with the head.
            assertThat(trace.count(DrainOutcome.SKIPPED_LENGTH)).isEqualTo(requests);
            assertThat(trace.discarded()).isZero();
            return;
        }
        if (path.startsWith("/pause/100")) {
            assertThat(trace.count(DrainOutcome.ABANDONED_TIME)).isEqualTo(requests);
            return;
        }
        if (policy == Policy.BOUNDED) {
            assertThat(trace.count(DrainOutcome.REUSED_INLINE)).as("bounded never drains inline").isZero();
            assertThat(trace.count(DrainOutcome.REUSED_ASYNC)).as("drained in the background").isPositive();
        } else {
            assertThat(trace.closed).allMatch(c -> c.outcome().reused(), "every connection reused");
        }
    }

    /** Reads one JSON object the way a streaming decoder does: up to its closing brace, not a byte more. */
    private static void decodeOneObject(InputStream in) throws IOException {
        int depth = 0;
        int c;
        while ((c = in.read()) != -1) {
            if (c == '{') {
                depth++;
            } else if (c == '}' && --depth == 0) {
                return;
            }
        }
        throw new IOException("no JSON object");
    }

    private static String outcomes(RecordingTrace trace) {
        StringBuilder text = new StringBuilder();
        for (DrainOutcome outcome : DrainOutcome.values()) {
            long count = trace.count(outcome);
            if (count > 0) {
                text.append(outcome).append('=').append(count).append(' ');
            }
        }
        return text.toString().trim();
    }
}
