package dev.shuttle.wire.http2;

import static dev.shuttle.wire.http2.Http2ErrorCode.FLOW_CONTROL_ERROR;
import static dev.shuttle.wire.http2.Http2ErrorCode.FRAME_SIZE_ERROR;
import static dev.shuttle.wire.http2.Http2ErrorCode.PROTOCOL_ERROR;
import static dev.shuttle.wire.http2.Http2Frame.FLAG_ACK;
import static dev.shuttle.wire.http2.Http2Frame.FLAG_END_HEADERS;
import static dev.shuttle.wire.http2.Http2Frame.FLAG_END_STREAM;
import static dev.shuttle.wire.http2.Http2Frame.FLAG_PADDED;
import static dev.shuttle.wire.http2.Http2Frame.FLAG_PRIORITY;
import static dev.shuttle.wire.http2.Http2Frame.TYPE_CONTINUATION;
import static dev.shuttle.wire.http2.Http2Frame.TYPE_DATA;
import static dev.shuttle.wire.http2.Http2Frame.TYPE_GOAWAY;
import static dev.shuttle.wire.http2.Http2Frame.TYPE_HEADERS;
import static dev.shuttle.wire.http2.Http2Frame.TYPE_PING;
import static dev.shuttle.wire.http2.Http2Frame.TYPE_PRIORITY;
import static dev.shuttle.wire.http2.Http2Frame.TYPE_PUSH_PROMISE;
import static dev.shuttle.wire.http2.Http2Frame.TYPE_RST_STREAM;
import static dev.shuttle.wire.http2.Http2Frame.TYPE_SETTINGS;
import static dev.shuttle.wire.http2.Http2Frame.TYPE_WINDOW_UPDATE;
import static dev.shuttle.wire.http2.RawFrames.bytes;
import static dev.shuttle.wire.http2.RawFrames.concat;
import static dev.shuttle.wire.http2.RawFrames.frame;
import static dev.shuttle.wire.http2.RawFrames.readByteByByte;
import static dev.shuttle.wire.http2.RawFrames.readWhole;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class Http2FrameReaderTest {

    @Test
    void readsDataWithPaddingAndEndStream() throws Exception {
        byte[] input = frame(TYPE_DATA, FLAG_PADDED | FLAG_END_STREAM, 3, bytes(2, 'h', 'i', 0, 0));

        List<Http2Frame> frames = readWhole(new Http2FrameReader(), input);

        assertThat(frames).containsExactly(new DataFrame(3, ByteBuffer.wrap(bytes('h', 'i')), true, 3));
        assertThat(((DataFrame) frames.get(0)).flowControlledLength()).isEqualTo(5);
    }

    @Test
    void dataPayloadIsASliceOfTheInputBufferNotACopy() throws Exception {
        ByteBuffer input = ByteBuffer.wrap(frame(TYPE_DATA, 0, 1, bytes('a', 'b')));

        DataFrame data = (DataFrame) new Http2FrameReader().read(input);

        assertThat(data.data().hasArray()).isTrue();
        assertThat(data.data().array()).isSameAs(input.array());
        assertThat(data.data().arrayOffset() + data.data().position()).isEqualTo(9);
    }

    @Test
    void readingThePayloadDoesNotChangeTheFrame() throws Exception {
        DataFrame data = (DataFrame) new Http2FrameReader().read(ByteBuffer.wrap(
                frame(TYPE_DATA, FLAG_PADDED, 1, bytes(1, 'a', 'b', 0))));

        data.data().get(new byte[2]);

        assertThat(data.flowControlledLength()).isEqualTo(4);
        assertThat(data).isEqualTo(new DataFrame(1, ByteBuffer.wrap(bytes('a', 'b')), false, 2));
    }

    @Test
    void readsHeadersWithPriorityAndPadding() throws Exception {
        byte[] payload = bytes(1, 0x80, 0, 0, 5, 15, 0x82, 0);
        byte[] input = frame(TYPE_HEADERS, FLAG_PADDED | FLAG_PRIORITY | FLAG_END_HEADERS, 7, payload);

        List<Http2Frame> frames = readWhole(new Http2FrameReader(), input);

        assertThat(frames).containsExactly(new HeadersFrame(7, ByteBuffer.wrap(bytes(0x82)), false, true,
                new Priority(5, true, 16), 2));
    }

    @Test
    void ignoresTheReservedBitOfStreamIdsAndIncrements() throws Exception {
        byte[] input = concat(
                frame(TYPE_WINDOW_UPDATE, 0, 0x8000_0003, bytes(0x80, 0, 0, 10)),
                frame(TYPE_GOAWAY, 0, 0, bytes(0x80, 0, 0, 9, 0, 0, 0, 0)));

        assertThat(readWhole(new Http2FrameReader(), input)).containsExactly(
                new WindowUpdateFrame(3, 10),
                new GoAwayFrame(9, 0, ByteBuffer.allocate(0)));
    }

    @Test
    void returnsUnknownFrameTypesWithTheirPayload() throws Exception {
        byte[] input = frame(0x42, 0xff, 5, bytes(1, 2, 3));

        assertThat(readWhole(new Http2FrameReader(), input))
                .containsExactly(new UnknownFrame(0x42, 0xff, 5, ByteBuffer.wrap(bytes(1, 2, 3))));
    }

    @Test
    void settingsDropUnknownIdentifiersAndKeepOrderAndRepeats() throws Exception {
        byte[] input = frame(TYPE_SETTINGS, 0, 0, bytes(
                0, 1, 0, 0, 0, 0,
                0, 0x42, 0, 0, 0, 7,
                0, 1, 0, 0, 0x10, 0,
                0, 4, 0x7f, 0xff, 0xff, 0xff));

        assertThat(readWhole(new Http2FrameReader(), input)).containsExactly(SettingsFrame.of(List.of(
                new SettingsFrame.Setting(1, 0),
                new SettingsFrame.Setting(1, 4096),
                new SettingsFrame.Setting(4, Integer.MAX_VALUE))));
    }

    @Test
    void incompleteFrameConsumesNothingAndReturnsNull() throws Exception {
        byte[] whole = frame(TYPE_PING, 0, 0, bytes(1, 2, 3, 4, 5, 6, 7, 8));
        Http2FrameReader reader = new Http2FrameReader();
        for (int visible = 0; visible < whole.length; visible++) {
            ByteBuffer buffer = ByteBuffer.wrap(whole, 0, visible);

            assertThat(reader.read(buffer)).isNull();
            assertThat(buffer.position()).isZero();
        }
        assertThat(reader.read(ByteBuffer.wrap(whole))).isEqualTo(new PingFrame(0x0102030405060708L, false));
    }

    @Test
    void byteByByteGivesTheSameFramesAsWholeInput() throws Exception {
        byte[] input = concat(
                frame(TYPE_SETTINGS, 0, 0, bytes(0, 5, 0, 0, 0x40, 0)),
                frame(TYPE_HEADERS, FLAG_END_STREAM, 1, bytes(0x82, 0x84)),
                frame(TYPE_CONTINUATION, FLAG_END_HEADERS, 1, bytes(0x86)),
                frame(TYPE_DATA, FLAG_PADDED, 1, bytes(1, 'x', 0)),
                frame(TYPE_PING, FLAG_ACK, 0, bytes(0, 0, 0, 0, 0, 0, 0, 1)),
                frame(0x20, 3, 9),
                frame(TYPE_RST_STREAM, 0, 1, bytes(0, 0, 0, 8)));

        List<Http2Frame> whole = readWhole(new Http2FrameReader(), input);

        assertThat(whole).hasSize(7);
        assertThat(readByteByByte(new Http2FrameReader(), input)).isEqualTo(whole);
    }

    @Test
    void frameLongerThanMaxFrameSizeIsRefusedFromItsHeaderAlone() {
        byte[] header = frame(16_385, TYPE_DATA, 0, 1);

        Http2Exception e = readError(new Http2FrameReader(), header);

        assertConnectionError(e, FRAME_SIZE_ERROR);
    }

    @Test
    void largerMaxFrameSizeAcceptsLargerFrames() throws Exception {
        Http2FrameReader reader = new Http2FrameReader(1 << 20);
        byte[] input = frame(TYPE_DATA, 0, 1, new byte[100_000]);

        assertThat(((DataFrame) readWhole(reader, input).get(0)).data().remaining()).isEqualTo(100_000);
        assertThat(reader.requiredBufferSize()).isEqualTo(9 + (1 << 20));
    }

    @ParameterizedTest
    @ValueSource(ints = {TYPE_DATA, TYPE_HEADERS, TYPE_PRIORITY, TYPE_RST_STREAM, TYPE_PUSH_PROMISE,
            TYPE_CONTINUATION})
    void streamFramesOnStreamZeroAreConnectionProtocolErrors(int type) {
        Http2Exception e = readError(new Http2FrameReader(), frame(5, type, 0, 0));

        assertConnectionError(e, PROTOCOL_ERROR);
    }

    @ParameterizedTest
    @ValueSource(ints = {TYPE_SETTINGS, TYPE_PING, TYPE_GOAWAY})
    void connectionFramesOnAStreamAreConnectionProtocolErrors(int type) {
        Http2Exception e = readError(new Http2FrameReader(), frame(8, type, 0, 1));

        assertConnectionError(e, PROTOCOL_ERROR);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 7, 9})
    void pingOfOtherThanEightOctetsIsAFrameSizeError(int length) {
        assertConnectionError(readError(new Http2FrameReader(), frame(length, TYPE_PING, 0, 0)), FRAME_SIZE_ERROR);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 3, 5})
    void rstStreamOfOtherThanFourOctetsIsAFrameSizeError(int length) {
        assertConnectionError(readError(new Http2FrameReader(), frame(length, TYPE_RST_STREAM, 0, 1)),
                FRAME_SIZE_ERROR);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 3, 5})
    void windowUpdateOfOtherThanFourOctetsIsAFrameSizeError(int length) {
        assertConnectionError(readError(new Http2FrameReader(), frame(length, TYPE_WINDOW_UPDATE, 0, 1)),
                FRAME_SIZE_ERROR);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 5, 7})
    void settingsLengthNotAMultipleOfSixIsAFrameSizeError(int length) {
        assertConnectionError(readError(new Http2FrameReader(), frame(length, TYPE_SETTINGS, 0, 0)),
                FRAME_SIZE_ERROR);
    }

    @Test
    void settingsAckWithAPayloadIsAFrameSizeError() {
        assertConnectionError(readError(new Http2FrameReader(), frame(6, TYPE_SETTINGS, FLAG_ACK, 0)),
                FRAME_SIZE_ERROR);
    }

    @Test
    void goAwayShorterThanEightOctetsIsAFrameSizeError() {
        assertConnectionError(readError(new Http2FrameReader(), frame(7, TYPE_GOAWAY, 0, 0)), FRAME_SIZE_ERROR);
    }

    @Test
    void paddedFramesTooShortForTheirFixedFieldsAreFrameSizeErrors() {
        assertConnectionError(readError(new Http2FrameReader(), frame(0, TYPE_DATA, FLAG_PADDED, 1)),
                FRAME_SIZE_ERROR);
        assertConnectionError(readError(new Http2FrameReader(),
                frame(5, TYPE_HEADERS, FLAG_PADDED | FLAG_PRIORITY, 1)), FRAME_SIZE_ERROR);
        assertConnectionError(readError(new Http2FrameReader(), frame(4, TYPE_PUSH_PROMISE, FLAG_PADDED, 1)),
                FRAME_SIZE_ERROR);
    }

    @Test
    void priorityOfOtherThanFiveOctetsIsAStreamErrorAfterTheFrameIsConsumed() throws Exception {
        byte[] input = concat(frame(TYPE_PRIORITY, 0, 3, bytes(0, 0, 0, 1, 0, 0)), frame(TYPE_PING, 0, 0,
                new byte[8]));
        ByteBuffer buffer = ByteBuffer.wrap(input);
        Http2FrameReader reader = new Http2FrameReader();

        Http2Exception e = catchThrowableOfType(Http2Exception.class, () -> reader.read(buffer));

        assertStreamError(e, 3, FRAME_SIZE_ERROR);
        assertThat(reader.read(buffer)).isEqualTo(new PingFrame(0, false));
    }

    @Test
    void priorityOnItselfIsAStreamProtocolError() {
        assertStreamError(readError(new Http2FrameReader(), frame(TYPE_PRIORITY, 0, 3, bytes(0, 0, 0, 3, 0))), 3,
                PROTOCOL_ERROR);
    }

    @Test
    void headersDependingOnItselfIsAConnectionErrorToKeepHpackInStep() {
        byte[] input = frame(TYPE_HEADERS, FLAG_PRIORITY | FLAG_END_HEADERS, 3, bytes(0, 0, 0, 3, 0, 0x82));

        assertConnectionError(readError(new Http2FrameReader(), input), PROTOCOL_ERROR);
    }

    @Test
    void paddingAsLongAsThePayloadIsAProtocolError() {
        assertConnectionError(readError(new Http2FrameReader(), frame(TYPE_DATA, FLAG_PADDED, 1, bytes(2, 0))),
                PROTOCOL_ERROR);
        assertConnectionError(readError(new Http2FrameReader(),
                frame(TYPE_HEADERS, FLAG_PADDED | FLAG_END_HEADERS, 1, bytes(2, 0x82))), PROTOCOL_ERROR);
        assertConnectionError(readError(new Http2FrameReader(),
                frame(TYPE_PUSH_PROMISE, FLAG_PADDED | FLAG_END_HEADERS, 1, bytes(1, 0, 0, 0, 2))), PROTOCOL_ERROR);
    }

    @Test
    void paddingThatLeavesNoContentIsAllowed() throws Exception {
        byte[] input = frame(TYPE_DATA, FLAG_PADDED, 1, bytes(1, 0));

        assertThat(readWhole(new Http2FrameReader(), input))
                .containsExactly(new DataFrame(1, ByteBuffer.allocate(0), false, 2));
    }

    @Test
    void zeroWindowIncrementIsAConnectionErrorOnStreamZero() {
        assertConnectionError(readError(new Http2FrameReader(), frame(TYPE_WINDOW_UPDATE, 0, 0, bytes(0, 0, 0, 0))),
                PROTOCOL_ERROR);
    }

    @Test
    void zeroWindowIncrementIsAStreamErrorOnAStream() {
        assertStreamError(readError(new Http2FrameReader(), frame(TYPE_WINDOW_UPDATE, 0, 5, bytes(0x80, 0, 0, 0))),
                5, PROTOCOL_ERROR);
    }

    @Test
    void settingsValuesOutOfRangeAreRefusedWithTheirRfcCodes() {
        assertConnectionError(readError(new Http2FrameReader(), frame(TYPE_SETTINGS, 0, 0, bytes(0, 2, 0, 0, 0, 2))),
                PROTOCOL_ERROR);
        assertConnectionError(readError(new Http2FrameReader(),
                frame(TYPE_SETTINGS, 0, 0, bytes(0, 4, 0x80, 0, 0, 0))), FLOW_CONTROL_ERROR);
        assertConnectionError(readError(new Http2FrameReader(),
                frame(TYPE_SETTINGS, 0, 0, bytes(0, 5, 0, 0, 0x3f, 0xff))), PROTOCOL_ERROR);
        assertConnectionError(readError(new Http2FrameReader(),
                frame(TYPE_SETTINGS, 0, 0, bytes(0, 5, 1, 0, 0, 0))), PROTOCOL_ERROR);
    }

    @Test
    void pushPromiseOfStreamZeroIsAProtocolError() {
        assertConnectionError(readError(new Http2FrameReader(),
                frame(TYPE_PUSH_PROMISE, FLAG_END_HEADERS, 1, bytes(0, 0, 0, 0))), PROTOCOL_ERROR);
    }

    @Test
    void continuationWithoutAnOpenBlockIsAProtocolError() {
        assertConnectionError(readError(new Http2FrameReader(), frame(TYPE_CONTINUATION, FLAG_END_HEADERS, 1)),
                PROTOCOL_ERROR);
    }

    @Test
    void anyOtherFrameInsideAFieldBlockIsAProtocolErrorBeforeItsPayloadArrives() throws Exception {
        Http2FrameReader reader = new Http2FrameReader();
        ByteBuffer buffer = ByteBuffer.wrap(concat(frame(TYPE_HEADERS, 0, 1, bytes(0x82)),
                frame(16_000, TYPE_DATA, 0, 1)));

        assertThat(reader.read(buffer)).isInstanceOf(HeadersFrame.class);
        assertThat(reader.inFieldBlock()).isTrue();
        assertConnectionError(catchThrowableOfType(Http2Exception.class, () -> reader.read(buffer)),
                PROTOCOL_ERROR);
    }

    @Test
    void continuationOnAnotherStreamInsideAFieldBlockIsAProtocolError() throws Exception {
        byte[] input = concat(frame(TYPE_HEADERS, 0, 1, bytes(0x82)),
                frame(TYPE_CONTINUATION, FLAG_END_HEADERS, 3, bytes(0x84)));

        assertConnectionError(readError(new Http2FrameReader(), input), PROTOCOL_ERROR);
    }

    @Test
    void unknownFrameInsideAFieldBlockIsAProtocolError() {
        byte[] input = concat(frame(TYPE_PUSH_PROMISE, 0, 1, bytes(0, 0, 0, 2)), frame(0x30, 0, 1));

        assertConnectionError(readError(new Http2FrameReader(), input), PROTOCOL_ERROR);
    }

    @Test
    void fieldBlockEndsWithTheContinuationThatHasEndHeaders() throws Exception {
        Http2FrameReader reader = new Http2FrameReader();
        byte[] input = concat(frame(TYPE_HEADERS, 0, 1, bytes(0x82)), frame(TYPE_CONTINUATION, 0, 1),
                frame(TYPE_CONTINUATION, FLAG_END_HEADERS, 1, bytes(0x84)), frame(TYPE_PING, 0, 0, new byte[8]));

        assertThat(readWhole(reader, input)).hasSize(4);
        assertThat(reader.inFieldBlock()).isFalse();
    }

    @Test
    void readsFromALittleEndianOrDirectBufferAlike() throws Exception {
        byte[] input = frame(TYPE_WINDOW_UPDATE, 0, 1, bytes(0, 1, 0, 0));
        ByteBuffer direct = ByteBuffer.allocateDirect(input.length).put(input).flip();
        direct.order(java.nio.ByteOrder.LITTLE_ENDIAN);

        assertThat(new Http2FrameReader().read(direct)).isEqualTo(new WindowUpdateFrame(1, 65536));
    }

    private static Http2Exception readError(Http2FrameReader reader, byte[] input) {
        Http2Exception e = catchThrowableOfType(Http2Exception.class, () -> readWhole(reader, input));
        assertThat(e).as("expected an Http2Exception").isNotNull();
        Http2Exception again = catchThrowableOfType(Http2Exception.class,
                () -> readByteByByte(new Http2FrameReader(reader.maxFrameSize()), input));
        assertThat(again).as("same error one octet at a time").isNotNull();
        assertThat(again.error()).isEqualTo(e.error());
        assertThat(again.streamId()).isEqualTo(e.streamId());
        return e;
    }

    static void assertConnectionError(Http2Exception e, Http2ErrorCode code) {
        assertThat(e).isNotNull();
        assertThat(e.error()).as(e.getMessage()).isEqualTo(code);
        assertThat(e.isConnectionError()).as(e.getMessage()).isTrue();
    }

    static void assertStreamError(Http2Exception e, int streamId, Http2ErrorCode code) {
        assertThat(e).isNotNull();
        assertThat(e.error()).as(e.getMessage()).isEqualTo(code);
        assertThat(e.isConnectionError()).as(e.getMessage()).isFalse();
        assertThat(e.streamId()).isEqualTo(streamId);
    }
}
