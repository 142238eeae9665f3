package dev.shuttle.wire.hpack;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The examples of RFC 7541 Appendix C, run through the decoder and the encoder: each step decodes the RFC's octets
 * to the RFC's field list, encodes that list back to the same octets, and leaves both dynamic tables as the RFC
 * prints them. The RFC's encoder Huffman-codes every literal in C.4 and C.6 (even "307", which gains nothing) and
 * indexes every response field in C.5 and C.6, so those steps use those choices; the request examples match
 * Shuttle's default indexing policy as it is.
 */
class HpackRfcExamplesTest {

    /** One header block of an example: its octets, its fields, and the dynamic table after it (newest first). */
    private record Step(String hex, List<String> fields, List<String> table, int tableSize) {
    }

    @Test
    void c21LiteralWithIndexing() throws Exception {
        run(4096, Huffman.Use.NEVER, IndexingPolicy.DEFAULT, new Step(
                "400a 6375 7374 6f6d 2d6b 6579 0d63 7573 746f 6d2d 6865 6164 6572",
                List.of("custom-key", "custom-header"),
                List.of("custom-key: custom-header"), 55));
    }

    @Test
    void c22LiteralWithoutIndexing() throws Exception {
        run(4096, Huffman.Use.NEVER, IndexingPolicy.DEFAULT, new Step(
                "040c 2f73 616d 706c 652f 7061 7468",
                List.of(":path", "/sample/path"),
                List.of(), 0));
    }

    @Test
    void c23LiteralNeverIndexed() throws Exception {
        run(4096, Huffman.Use.NEVER, (name, value) -> IndexingPolicy.Indexing.NEVER, new Step(
                "1008 7061 7373 776f 7264 0673 6563 7265 74",
                List.of("password", "secret"),
                List.of(), 0));
    }

    @Test
    void c24IndexedField() throws Exception {
        run(4096, Huffman.Use.NEVER, IndexingPolicy.DEFAULT, new Step("82", List.of(":method", "GET"), List.of(), 0));
    }

    @Test
    void c3RequestsWithoutHuffman() throws Exception {
        run(4096, Huffman.Use.NEVER, IndexingPolicy.DEFAULT,
                new Step("8286 8441 0f77 7777 2e65 7861 6d70 6c65 2e63 6f6d",
                        request("http", "/"),
                        List.of(":authority: www.example.com"), 57),
                new Step("8286 84be 5808 6e6f 2d63 6163 6865",
                        with(request("http", "/"), "cache-control", "no-cache"),
                        List.of("cache-control: no-cache", ":authority: www.example.com"), 110),
                new Step("8287 85bf 400a 6375 7374 6f6d 2d6b 6579 0c63 7573 746f 6d2d 7661 6c75 65",
                        with(request("https", "/index.html"), "custom-key", "custom-value"),
                        List.of("custom-key: custom-value", "cache-control: no-cache",
                                ":authority: www.example.com"), 164));
    }

    @Test
    void c4RequestsWithHuffman() throws Exception {
        run(4096, Huffman.Use.ALWAYS, IndexingPolicy.DEFAULT,
                new Step("8286 8441 8cf1 e3c2 e5f2 3a6b a0ab 90f4 ff",
                        request("http", "/"),
                        List.of(":authority: www.example.com"), 57),
                new Step("8286 84be 5886 a8eb 1064 9cbf",
                        with(request("http", "/"), "cache-control", "no-cache"),
                        List.of("cache-control: no-cache", ":authority: www.example.com"), 110),
                new Step("8287 85bf 4088 25a8 49e9 5ba9 7d7f 8925 a849 e95b b8e8 b4bf",
                        with(request("https", "/index.html"), "custom-key", "custom-value"),
                        List.of("custom-key: custom-value", "cache-control: no-cache",
                                ":authority: www.example.com"), 164));
    }

    @Test
    void c5ResponsesWithoutHuffmanEvictingFromA256OctetTable() throws Exception {
        run(256, Huffman.Use.NEVER, IndexingPolicy.ALWAYS,
                new Step("4803 3330 3258 0770 7269 7661 7465 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133"
                        + "2032 303a 3133 3a32 3120 474d 546e 1768 7474 7073 3a2f 2f77 7777 2e65 7861 6d70"
                        + "6c65 2e63 6f6d",
                        response("302", "Mon, 21 Oct 2013 20:13:21 GMT"),
                        List.of("location: https://www.example.com", "date: Mon, 21 Oct 2013 20:13:21 GMT",
                                "cache-control: private", ":status: 302"), 222),
                new Step("4803 3330 37c1 c0bf",
                        response("307", "Mon, 21 Oct 2013 20:13:21 GMT"),
                        List.of(":status: 307", "location: https://www.example.com",
                                "date: Mon, 21 Oct 2013 20:13:21 GMT", "cache-control: private"), 222),
                new Step("88c1 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133 2032 303a 3133 3a32 3220 474d"
                        + "54c0 5a04 677a 6970 7738 666f 6f3d 4153 444a 4b48 514b 425a 584f 5157 454f 5049"
                        + "5541 5851 5745 4f49 553b 206d 6178 2d61 6765 3d33 3630 303b 2076 6572 7369 6f6e"
                        + "3d31",
                        thirdResponse(),
                        List.of("set-cookie: foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1",
                                "content-encoding: gzip", "date: Mon, 21 Oct 2013 20:13:22 GMT"), 215));
    }

    @Test
    void c6ResponsesWithHuffmanEvictingFromA256OctetTable() throws Exception {
        run(256, Huffman.Use.ALWAYS, IndexingPolicy.ALWAYS,
                new Step("4882 6402 5885 aec3 771a 4b61 96d0 7abe 9410 54d4 44a8 2005 9504 0b81 66e0 82a6"
                        + "2d1b ff6e 919d 29ad 1718 63c7 8f0b 97c8 e9ae 82ae 43d3",
                        response("302", "Mon, 21 Oct 2013 20:13:21 GMT"),
                        List.of("location: https://www.example.com", "date: Mon, 21 Oct 2013 20:13:21 GMT",
                                "cache-control: private", ":status: 302"), 222),
                new Step("4883 640e ffc1 c0bf",
                        response("307", "Mon, 21 Oct 2013 20:13:21 GMT"),
                        List.of(":status: 307", "location: https://www.example.com",
                                "date: Mon, 21 Oct 2013 20:13:21 GMT", "cache-control: private"), 222),
                new Step("88c1 6196 d07a be94 1054 d444 a820 0595 040b 8166 e084 a62d 1bff c05a 839b d9ab"
                        + "77ad 94e7 821d d7f2 e6c7 b335 dfdf cd5b 3960 d5af 2708 7f36 72c1 ab27 0fb5 291f"
                        + "9587 3160 65c0 03ed 4ee5 b106 3d50 07",
                        thirdResponse(),
                        List.of("set-cookie: foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1",
                                "content-encoding: gzip", "date: Mon, 21 Oct 2013 20:13:22 GMT"), 215));
    }

    private static void run(int tableSize, Huffman.Use huffman, IndexingPolicy policy, Step... steps) throws Exception {
        HpackDecoder decoder = new HpackDecoder(1 << 20, tableSize);
        HpackEncoder encoder = new HpackEncoder(tableSize, tableSize, huffman, policy);
        for (Step step : steps) {
            byte[] block = Hex.parse(step.hex());

            List<String> decoded = new ArrayList<>();
            boolean fits = decoder.decode(ByteBuffer.wrap(block), (name, value) -> {
                decoded.add(name);
                decoded.add(value);
            });
            assertThat(fits).isTrue();
            assertThat(decoded).isEqualTo(step.fields());
            assertThat(table(decoder.tableLength(), decoder::tableEntry)).isEqualTo(step.table());
            assertThat(decoder.tableSize()).isEqualTo(step.tableSize());

            ByteBuffer out = ByteBuffer.allocate(HpackEncoder.maxEncodedLength(step.fields()));
            encoder.encode(step.fields(), out);
            assertThat(Hex.format(out.array(), out.position())).isEqualTo(Hex.format(block, block.length));
            assertThat(table(encoder.tableLength(), encoder::tableEntry)).isEqualTo(step.table());
            assertThat(encoder.tableSize()).isEqualTo(step.tableSize());
        }
    }

    private static List<String> table(int length, java.util.function.IntFunction<String> entry) {
        List<String> entries = new ArrayList<>();
        for (int i = 0; i < length; i++) {
            entries.add(entry.apply(i));
        }
        return entries;
    }

    private static List<String> request(String scheme, String path) {
        return List.of(":method", "GET", ":scheme", scheme, ":path", path, ":authority", "www.example.com");
    }

    private static List<String> response(String status, String date) {
        return List.of(":status", status, "cache-control", "private", "date", date,
                "location", "https://www.example.com");
    }

    private static List<String> thirdResponse() {
        return with(with(response("200", "Mon, 21 Oct 2013 20:13:22 GMT"), "content-encoding", "gzip"),
                "set-cookie", "foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1");
    }

    private static List<String> with(List<String> fields, String name, String value) {
        List<String> longer = new ArrayList<>(fields);
        longer.add(name);
        longer.add(value);
        return longer;
    }
}
