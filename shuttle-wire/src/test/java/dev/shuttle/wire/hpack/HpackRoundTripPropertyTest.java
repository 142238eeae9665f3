package dev.shuttle.wire.hpack;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * One encoder and one decoder talk over many blocks, with the table size changing between some of them, as a
 * connection's SETTINGS would change it: every block decodes to the list that was encoded, and after every block the
 * two dynamic tables hold the same entries.
 */
class HpackRoundTripPropertyTest {
    private static final List<String> NAMES = List.of(":method", ":path", ":authority", ":status", "accept",
            "accept-encoding", "user-agent", "cookie", "set-cookie", "authorization", "content-type",
            "content-length", "cache-control", "date", "etag", "x-custom", "x-trace-id");

    /** One step of a connection: either a block to send or a new SETTINGS_HEADER_TABLE_SIZE. */
    record Step(List<String> block, int tableSize) {
        static Step block(List<String> fields) {
            return new Step(fields, -1);
        }

        static Step tableSize(int size) {
            return new Step(null, size);
        }
    }

    @Property(tries = 200)
    void encoderAndDecoderStayInStepOverManyBlocks(@ForAll("conversations") List<Step> steps,
                                                   @ForAll("caps") int encoderCap) throws Exception {
        HpackEncoder encoder = new HpackEncoder(encoderCap);
        HpackDecoder decoder = new HpackDecoder(Integer.MAX_VALUE, 4096);
        for (Step step : steps) {
            if (step.block() == null) {
                // The peer's decoder announces a new size; our encoder takes it, and the decoder's limit follows
                // once the SETTINGS would have been acknowledged, before the next block.
                encoder.peerMaxTableSize(step.tableSize());
                decoder.maxTableSize(step.tableSize());
                continue;
            }
            ByteBuffer out = ByteBuffer.allocate(HpackEncoder.maxEncodedLength(step.block()));
            encoder.encode(step.block(), out);
            List<String> decoded = new ArrayList<>();
            boolean fits = decoder.decode(out.flip(), (name, value) -> {
                decoded.add(name);
                decoded.add(value);
            });

            assertThat(fits).isTrue();
            assertThat(decoded).isEqualTo(step.block());
            assertThat(decoder.tableSize()).isEqualTo(encoder.tableSize());
            assertThat(decoder.tableLength()).isEqualTo(encoder.tableLength());
            for (int i = 0; i < encoder.tableLength(); i++) {
                assertThat(decoder.tableEntry(i)).isEqualTo(encoder.tableEntry(i));
            }
        }
    }

    @Provide
    Arbitrary<Integer> caps() {
        return Arbitraries.of(0, 64, 256, 4096, 4096, 4096);
    }

    @Provide
    Arbitrary<List<Step>> conversations() {
        Arbitrary<Step> block = fields().list().ofMaxSize(12)
                .map(pairs -> pairs.stream().flatMap(List::stream).toList()).map(Step::block);
        Arbitrary<Step> resize = Arbitraries.oneOf(Arbitraries.of(0, 32, 100, 256, 4096, 65_536),
                Arbitraries.integers().between(0, 5000)).map(Step::tableSize);
        return Arbitraries.frequencyOf(net.jqwik.api.Tuple.of(8, block), net.jqwik.api.Tuple.of(1, resize))
                .list().ofMaxSize(40);
    }

    private static Arbitrary<List<String>> fields() {
        Arbitrary<String> names = Arbitraries.oneOf(Arbitraries.of(NAMES),
                Arbitraries.strings().withChars("abcdefghijklmnopqrstuvwxyz-0123456789").ofMinLength(1)
                        .ofMaxLength(20));
        Arbitrary<String> values = Arbitraries.oneOf(
                Arbitraries.of("", "GET", "/", "gzip, deflate, br", "text/html", "0", "no-cache"),
                Arbitraries.strings().withCharRange(' ', '~').ofMaxLength(60),
                Arbitraries.strings().withCharRange('\u0000', '\u00ff').ofMaxLength(30),
                Arbitraries.strings().withCharRange('a', 'z').ofMinLength(1000).ofMaxLength(3000));
        return Combinators.combine(names, values).as(List::of);
    }
}
