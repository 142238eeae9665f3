package dev.shuttle.lab.busy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.shuttle.lab.load.LoadResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** wrk's command line and the report its script prints, from output captured off real runs of wrk 4.1.0. */
class WrkTest {
    /** {@code lab busy --scenario hot --protocol http1 --servers shuttle --duration 10s}: the measured run. */
    private static final String SHUTTLE_HOT = """
            Running 10s test @ http://127.0.0.1:44259/
              2 threads and 128 connections
              Thread Stats   Avg      Stdev     Max   +/- Stdev
                Latency     1.56ms    2.23ms  89.44ms   90.66%
                Req/Sec    47.40k     7.25k   65.41k    70.50%
              947082 requests in 10.06s, 109.29MB read
            Requests/sec:  94188.24
            Transfer/sec:     10.87MB
            requests=947082
            duration_us=10055204
            errors_connect=0
            errors_read=0
            errors_write=0
            errors_status=0
            errors_timeout=0
            p50_us=927
            p99_us=8255
            p999_us=26982
            max_us=89442
            """;

    /** {@code wrk -t 2 -c 8 -d 1s} against the fixture server ({@code shuttle serve}) on a path it answers 404. */
    private static final String NOT_FOUND = """
            Running 1s test @ http://127.0.0.1:18080/nope
              2 threads and 8 connections
              Thread Stats   Avg      Stdev     Max   +/- Stdev
                Latency   449.57us    0.92ms  12.02ms   91.63%
                Req/Sec    18.79k     5.59k   31.51k    71.43%
              39232 requests in 1.10s, 5.39MB read
              Non-2xx or 3xx responses: 39232
            Requests/sec:  35655.54
            Transfer/sec:      4.90MB
            requests=39232
            duration_us=1100306
            errors_connect=0
            errors_read=0
            errors_write=0
            errors_status=39232
            errors_timeout=0
            p50_us=174
            p99_us=4827
            p999_us=7442
            max_us=12025
            """;

    @Test
    void readsThroughputAndPercentilesFromTheScriptsReport() throws IOException {
        LoadResult result = Wrk.parse(SHUTTLE_HOT, 128);
        assertThat(result.connections()).isEqualTo(128);
        assertThat(result.requests()).isEqualTo(947_082);
        assertThat(result.errors()).isZero();
        assertThat(result.windowMillis()).isEqualTo(10_055.204);
        assertThat(result.requestsPerSecond()).isCloseTo(94_188.24, within(0.01));
        assertThat(result.p50Micros()).isEqualTo(927);
        assertThat(result.p99Micros()).isEqualTo(8_255);
        assertThat(result.p999Micros()).isEqualTo(26_982);
        assertThat(result.maxMicros()).isEqualTo(89_442);
        assertThat(result.firstError()).isNull();
        assertThat(result.generator()).isEqualTo("wrk");
    }

    @Test
    void statusErrorsCountAsFailedNotAsSucceeded() throws IOException {
        LoadResult result = Wrk.parse(NOT_FOUND, 8);
        assertThat(result.requests()).isZero();
        assertThat(result.errors()).isEqualTo(39_232);
        assertThat(result.firstError()).isEqualTo("wrk: 39232 status ≥ 400");
    }

    @Test
    void socketErrorsCountAsFailedBesideTheSucceeded() throws IOException {
        String output = SHUTTLE_HOT.replace("errors_status=0", "errors_status=3")
                .replace("errors_read=0", "errors_read=2").replace("errors_timeout=0", "errors_timeout=1");
        LoadResult result = Wrk.parse(output, 128);
        assertThat(result.requests()).isEqualTo(947_079);
        assertThat(result.errors()).isEqualTo(6);
        assertThat(result.firstError()).isEqualTo("wrk: 3 status ≥ 400, 2 read, 1 timeout");
    }

    @Test
    void outputWithoutTheReportIsAnErrorQuotingIt() {
        // wrk 4.1.0 against a closed port: no connection, so no done() and no report
        assertThatThrownBy(() -> Wrk.parse("unable to connect to 127.0.0.1:18099 Connection refused\n", 128))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("wrk printed no requests")
                .hasMessageContaining("Connection refused");
    }

    @Test
    void commandRunsTwoThreadsOverTheConnectionsWithTheScriptOnTheLabsPath() {
        assertThat(Wrk.command(Path.of("/usr/bin/wrk"), Path.of("/tmp/wrk-1.lua"), 8080, 128, 10)).containsExactly(
                "/usr/bin/wrk", "-t", "2", "-c", "128", "-d", "10s", "--timeout", "10s", "-s", "/tmp/wrk-1.lua",
                "http://127.0.0.1:8080/");
    }

    @Test
    void theScriptIsWrittenForTheRunAndDeletedAfterIt(@TempDir Path dir) throws IOException {
        Path script;
        try (Wrk wrk = new Wrk(Path.of("/usr/bin/wrk"), 128, dir)) {
            assertThat(wrk.name()).isEqualTo("wrk");
            try (var files = Files.list(dir)) {
                script = files.filter(p -> p.toString().endsWith(".lua")).findFirst().orElseThrow();
            }
            assertThat(Files.readString(script)).isEqualTo(Wrk.SCRIPT).contains("done = function(summary, latency");
        }
        assertThat(script).doesNotExist();
    }
}
