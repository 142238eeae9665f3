package dev.shuttle.wire.hpack;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.wire.http2.Http2Limits;
import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.openjdk.jol.info.GraphLayout;

/**
 * Retained heap of one connection's HPACK state, an encoder and a decoder, measured with JOL: empty, and after a
 * typical browser request and page response (a server's decoder holds the request's entries, its encoder the
 * response's). Objects shared by all connections (policies, enum constants, static tables) are not counted. The
 * figures are printed for the architecture notes; the assertions keep them from creeping up.
 */
class HpackFootprintTest {
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
    static final List<String> PAGE_RESPONSE = List.of(
            ":status", "200",
            "content-type", "text/html; charset=utf-8",
            "content-length", "51200",
            "date", "Tue, 03 Dec 2024 10:15:30 GMT",
            "cache-control", "private, max-age=0",
            "server", "shuttle",
            "vary", "accept-encoding",
            "content-encoding", "br",
            "strict-transport-security", "max-age=63072000; includeSubDomains",
            "x-content-type-options", "nosniff");

    @Test
    void idleEncoderAndDecoderStaySmall() throws Exception {
        HpackEncoder encoder = new HpackEncoder();
        HpackDecoder decoder = new HpackDecoder(Http2Limits.serverDefaults());
        long empty = retained(encoder, decoder);

        // The client's encoder produces what our decoder reads; our encoder answers.
        HpackEncoder client = new HpackEncoder();
        for (int exchange = 0; exchange < 10; exchange++) {
            ByteBuffer request = ByteBuffer.allocate(HpackEncoder.maxEncodedLength(BROWSER_REQUEST));
            client.encode(BROWSER_REQUEST, request);
            assertThat(decoder.decode(request.flip(), (name, value) -> { })).isTrue();
            ByteBuffer response = ByteBuffer.allocate(HpackEncoder.maxEncodedLength(PAGE_RESPONSE));
            encoder.encode(PAGE_RESPONSE, response);
        }
        long typical = retained(encoder, decoder);

        String report = "HPACK encoder+decoder retained heap: empty " + empty + " B; after a browser request and"
                + " page response " + typical + " B (decoder table " + decoder.tableLength() + " entries, "
                + decoder.tableSize() + " B by RFC count; encoder table " + encoder.tableLength() + " entries, "
                + encoder.tableSize() + " B)";
        System.out.println(report);
        assertThat(empty).isLessThanOrEqualTo(256);
        assertThat(typical).isLessThanOrEqualTo(6 * 1024);
    }

    /** Bytes reachable from the pair, less what every connection shares. */
    private static long retained(HpackEncoder encoder, HpackDecoder decoder) {
        GraphLayout shared = GraphLayout.parseInstance(IndexingPolicy.DEFAULT, IndexingPolicy.ALWAYS,
                Huffman.Use.WHEN_SHORTER);
        return GraphLayout.parseInstance(encoder, decoder).subtract(shared).totalSize();
    }
}
