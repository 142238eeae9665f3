package dev.shuttle.benchmarks.wire;

import dev.shuttle.wire.hpack.HpackDecoder;
import dev.shuttle.wire.hpack.HpackEncoder;
import dev.shuttle.wire.http2.Http2Exception;
import dev.shuttle.wire.http2.Http2Limits;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * HPACK encode and decode of a typical browser request (20 fields, about 700 octets of text), in the two states a
 * connection sees: the first request (empty tables: literals, Huffman, table inserts) and every later one (the
 * dynamic table already holds the repeated fields, so most fields are one-octet indexes).
 *
 * <p>Run: {@code mvn -B -pl shuttle-benchmarks -am package -DskipTests}, then
 * {@code java -cp shuttle-benchmarks/target/classes:$(cat shuttle-benchmarks/target/classpath.txt)
 * org.openjdk.jmh.Main HpackBenchmark -prof gc}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class HpackBenchmark {
    static final List<String> BROWSER_REQUEST = List.of(
            ":method", "GET",
            ":authority", "www.example.com",
            ":scheme", "https",
            ":path", "/articles/2024/http2?ref=home",
            "sec-ch-ua", "\"Chromium\";v=\"124\", \"Google Chrome\";v=\"124\", \"Not-A.Brand\";v=\"99\"",
            "sec-ch-ua-mobile", "?0",
            "sec-ch-ua-platform", "\"Linux\"",
            "upgrade-insecure-requests", "1",
            "user-agent", "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
                    + "Chrome/124.0.0.0 Safari/537.36",
            "accept", "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,"
                    + "image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7",
            "sec-fetch-site", "none",
            "sec-fetch-mode", "navigate",
            "sec-fetch-user", "?1",
            "sec-fetch-dest", "document",
            "accept-encoding", "gzip, deflate, br, zstd",
            "accept-language", "en-US,en;q=0.9",
            "cookie", "_ga=GA1.1.123456789.1700000000",
            "cookie", "session=3f9a1c2e7b5d4a6f8e0c1b2a3d4e5f60",
            "cookie", "theme=dark",
            "priority", "u=0, i");

    private final ByteBuffer out = ByteBuffer.allocate(HpackEncoder.maxEncodedLength(BROWSER_REQUEST));
    private HpackEncoder warmEncoder;
    private HpackDecoder warmDecoder;
    private byte[] firstBlock;
    private byte[] repeatBlock;

    @Setup
    public void setUp() throws Http2Exception {
        warmEncoder = new HpackEncoder();
        warmDecoder = new HpackDecoder(Http2Limits.serverDefaults());
        firstBlock = encode(warmEncoder);
        warmDecoder.decode(ByteBuffer.wrap(firstBlock), (name, value) -> { });
        repeatBlock = encode(warmEncoder);
    }

    private byte[] encode(HpackEncoder encoder) {
        out.clear();
        encoder.encode(BROWSER_REQUEST, out);
        byte[] block = new byte[out.position()];
        out.flip().get(block);
        return block;
    }

    /** First request on a connection: a new encoder, every repeated field inserted. */
    @Benchmark
    public int encodeFirstRequest() {
        out.clear();
        new HpackEncoder().encode(BROWSER_REQUEST, out);
        return out.position();
    }

    /** Later requests: the table hits, so the block is mostly one-octet indexes. */
    @Benchmark
    public int encodeRepeatedRequest() {
        out.clear();
        warmEncoder.encode(BROWSER_REQUEST, out);
        return out.position();
    }

    /** First request on a connection: a new decoder, Huffman-coded literals, table inserts. */
    @Benchmark
    public boolean decodeFirstRequest(Blackhole blackhole) throws Http2Exception {
        return new HpackDecoder(Http2Limits.serverDefaults())
                .decode(ByteBuffer.wrap(firstBlock), (name, value) -> blackhole.consume(value));
    }

    /** Later requests: indexes into the dynamic table, each value becoming a new String. */
    @Benchmark
    public boolean decodeRepeatedRequest(Blackhole blackhole) throws Http2Exception {
        return warmDecoder.decode(ByteBuffer.wrap(repeatBlock), (name, value) -> blackhole.consume(value));
    }
}
