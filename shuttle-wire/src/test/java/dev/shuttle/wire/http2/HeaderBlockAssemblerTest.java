package dev.shuttle.wire.http2;

import static dev.shuttle.wire.http2.Http2FrameReaderTest.assertConnectionError;
import static dev.shuttle.wire.http2.RawFrames.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

class HeaderBlockAssemblerTest {
    private final HeaderBlockAssembler assembler = new HeaderBlockAssembler(100, 4);

    @Test
    void completeHeadersPassThroughUncopied() throws Exception {
        HeadersFrame headers = new HeadersFrame(1, ByteBuffer.wrap(bytes(0x82)), true, true);

        assertThat(assembler.accept(headers)).isSameAs(headers);
        assertThat(assembler.inProgress()).isFalse();
    }

    @Test
    void otherFramesPassThroughBetweenBlocks() throws Exception {
        PingFrame ping = new PingFrame(1, false);

        assertThat(assembler.accept(ping)).isSameAs(ping);
    }

    @Test
    void joinsHeadersAndContinuationsIntoOneCompleteHeadersFrame() throws Exception {
        Priority priority = new Priority(0, false, 16);

        assertThat(assembler.accept(new HeadersFrame(3, buffer(1, 2), true, false, priority, 4))).isNull();
        assertThat(assembler.inProgress()).isTrue();
        assertThat(assembler.accept(new ContinuationFrame(3, buffer(), false))).isNull();
        Http2Frame whole = assembler.accept(new ContinuationFrame(3, buffer(3), true));

        assertThat(whole).isEqualTo(new HeadersFrame(3, buffer(1, 2, 3), true, true, priority, 4));
        assertThat(assembler.inProgress()).isFalse();
    }

    @Test
    void joinsPushPromiseAndContinuations() throws Exception {
        assertThat(assembler.accept(new PushPromiseFrame(1, 2, buffer(9), false, 0))).isNull();

        assertThat(assembler.accept(new ContinuationFrame(1, buffer(8), true)))
                .isEqualTo(new PushPromiseFrame(1, 2, buffer(9, 8), true, 0));
    }

    @Test
    void copiesFragmentsSoTheReadBufferMayBeReusedMeanwhile() throws Exception {
        byte[] readBuffer = bytes(1, 2);
        assembler.accept(new HeadersFrame(1, ByteBuffer.wrap(readBuffer), false, false));
        readBuffer[0] = 99;

        assertThat(assembler.accept(new ContinuationFrame(1, buffer(3), true)))
                .isEqualTo(new HeadersFrame(1, buffer(1, 2, 3), false, true));
    }

    @Test
    void continuationWithoutAnOpenBlockIsAProtocolError() {
        assertConnectionError(error(new ContinuationFrame(1, buffer(), true)), Http2ErrorCode.PROTOCOL_ERROR);
    }

    @Test
    void anyOtherFrameInsideABlockIsAProtocolError() throws Exception {
        assembler.accept(new HeadersFrame(1, buffer(1), false, false));

        assertConnectionError(error(new DataFrame(1, buffer(), false)), Http2ErrorCode.PROTOCOL_ERROR);
    }

    @Test
    void continuationOfAnotherStreamIsAProtocolError() throws Exception {
        assembler.accept(new HeadersFrame(1, buffer(1), false, false));

        assertConnectionError(error(new ContinuationFrame(3, buffer(), true)), Http2ErrorCode.PROTOCOL_ERROR);
    }

    @Test
    void blockLargerThanTheLimitIsEnhanceYourCalm() throws Exception {
        assembler.accept(new HeadersFrame(1, ByteBuffer.allocate(60), false, false));

        assertConnectionError(error(new ContinuationFrame(1, ByteBuffer.allocate(41), false)),
                Http2ErrorCode.ENHANCE_YOUR_CALM);
    }

    @Test
    void singleHeadersFrameLargerThanTheLimitIsRefusedToo() {
        assertConnectionError(error(new HeadersFrame(1, ByteBuffer.allocate(101), false, true)),
                Http2ErrorCode.ENHANCE_YOUR_CALM);
    }

    @Test
    void blockOfExactlyTheLimitIsAccepted() throws Exception {
        assembler.accept(new HeadersFrame(1, ByteBuffer.allocate(60), false, false));

        HeadersFrame whole = (HeadersFrame) assembler.accept(new ContinuationFrame(1, ByteBuffer.allocate(40), true));

        assertThat(whole.fragment().remaining()).isEqualTo(100);
    }

    @Test
    void floodOfEmptyContinuationsIsCutAfterTheFrameLimit() throws Exception {
        assembler.accept(new HeadersFrame(1, buffer(1), false, false));
        for (int i = 0; i < 4; i++) {
            assertThat(assembler.accept(new ContinuationFrame(1, buffer(), false))).isNull();
        }

        assertConnectionError(error(new ContinuationFrame(1, buffer(), false)), Http2ErrorCode.ENHANCE_YOUR_CALM);
    }

    @Test
    void limitsCountPerBlockNotPerConnection() throws Exception {
        for (int block = 0; block < 10; block++) {
            assembler.accept(new HeadersFrame(1, ByteBuffer.allocate(30), false, false));
            for (int i = 0; i < 3; i++) {
                assembler.accept(new ContinuationFrame(1, ByteBuffer.allocate(20), false));
            }
            assertThat(assembler.accept(new ContinuationFrame(1, ByteBuffer.allocate(10), true))).isNotNull();
        }
    }

    private Http2Exception error(Http2Frame frame) {
        return catchThrowableOfType(Http2Exception.class, () -> assembler.accept(frame));
    }

    private static ByteBuffer buffer(int... values) {
        return ByteBuffer.wrap(bytes(values));
    }
}
