package dev.shuttle.wire.http2;

import static dev.shuttle.wire.http2.Http2FrameReaderTest.assertConnectionError;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.List;
import org.junit.jupiter.api.Test;

class Http2SettingsTest {

    @Test
    void defaultsAreTheRfcInitialValues() {
        Http2Settings defaults = Http2Settings.DEFAULTS;

        assertThat(defaults.headerTableSize()).isEqualTo(4096);
        assertThat(defaults.enablePush()).isTrue();
        assertThat(defaults.maxConcurrentStreams()).isEqualTo(Http2Settings.UNLIMITED);
        assertThat(defaults.initialWindowSize()).isEqualTo(65_535);
        assertThat(defaults.maxFrameSize()).isEqualTo(16_384);
        assertThat(defaults.maxHeaderListSize()).isEqualTo(Http2Settings.UNLIMITED);
    }

    @Test
    void appliesParametersInOrderSoTheLastRepeatWins() throws Exception {
        SettingsFrame frame = SettingsFrame.of(List.of(
                new SettingsFrame.Setting(Http2Settings.INITIAL_WINDOW_SIZE, 1),
                new SettingsFrame.Setting(Http2Settings.ENABLE_PUSH, 0),
                new SettingsFrame.Setting(Http2Settings.INITIAL_WINDOW_SIZE, 1 << 20),
                new SettingsFrame.Setting(Http2Settings.MAX_CONCURRENT_STREAMS, 100)));

        Http2Settings applied = Http2Settings.DEFAULTS.apply(frame);

        assertThat(applied.initialWindowSize()).isEqualTo(1 << 20);
        assertThat(applied.enablePush()).isFalse();
        assertThat(applied.maxConcurrentStreams()).isEqualTo(100);
    }

    @Test
    void unknownIdentifiersAreIgnored() throws Exception {
        assertThat(Http2Settings.DEFAULTS.apply(SettingsFrame.of(List.of(new SettingsFrame.Setting(0x99, 5)))))
                .isEqualTo(Http2Settings.DEFAULTS);
        assertThat(Http2Settings.DEFAULTS.with(0x99, 5)).isEqualTo(Http2Settings.DEFAULTS);
    }

    @Test
    void ackChangesNothing() throws Exception {
        assertThat(Http2Settings.DEFAULTS.apply(SettingsFrame.ACK)).isEqualTo(Http2Settings.DEFAULTS);
    }

    @Test
    void enablePushOtherThanZeroOrOneIsAProtocolError() {
        assertConnectionError(validateError(Http2Settings.ENABLE_PUSH, 2), Http2ErrorCode.PROTOCOL_ERROR);
    }

    @Test
    void initialWindowAboveTwoToThe31MinusOneIsAFlowControlError() throws Exception {
        Http2Settings.validate(Http2Settings.INITIAL_WINDOW_SIZE, Integer.MAX_VALUE);

        assertConnectionError(validateError(Http2Settings.INITIAL_WINDOW_SIZE, 1L << 31),
                Http2ErrorCode.FLOW_CONTROL_ERROR);
    }

    @Test
    void maxFrameSizeOutsideItsRangeIsAProtocolError() throws Exception {
        Http2Settings.validate(Http2Settings.MAX_FRAME_SIZE, 16_384);
        Http2Settings.validate(Http2Settings.MAX_FRAME_SIZE, 16_777_215);

        assertConnectionError(validateError(Http2Settings.MAX_FRAME_SIZE, 16_383), Http2ErrorCode.PROTOCOL_ERROR);
        assertConnectionError(validateError(Http2Settings.MAX_FRAME_SIZE, 16_777_216),
                Http2ErrorCode.PROTOCOL_ERROR);
    }

    @Test
    void localValuesOutOfRangeAreRefusedWhenBuilt() {
        assertThatThrownBy(() -> Http2Settings.DEFAULTS.with(Http2Settings.MAX_FRAME_SIZE, 100))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Http2Settings.DEFAULTS.with(Http2Settings.ENABLE_PUSH, 3))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Http2Settings.DEFAULTS.with(Http2Settings.INITIAL_WINDOW_SIZE, 1L << 31))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void changesFromDefaultsAreWhatAFirstSettingsFrameCarries() {
        Http2Settings ours = Http2Limits.serverDefaults().announceIn(Http2Settings.DEFAULTS)
                .with(Http2Settings.MAX_CONCURRENT_STREAMS, 100)
                .with(Http2Settings.ENABLE_PUSH, 0);

        assertThat(ours.changesFrom(Http2Settings.DEFAULTS)).containsExactly(
                new SettingsFrame.Setting(Http2Settings.ENABLE_PUSH, 0),
                new SettingsFrame.Setting(Http2Settings.MAX_CONCURRENT_STREAMS, 100),
                new SettingsFrame.Setting(Http2Settings.MAX_HEADER_LIST_SIZE, 16 * 1024));
    }

    @Test
    void unlimitedGoesOutAsTheLargestUnsignedValue() {
        assertThat(Http2Settings.DEFAULTS.value(Http2Settings.MAX_HEADER_LIST_SIZE)).isEqualTo(0xffff_ffffL);
    }

    @Test
    void limitsKeepTheBlockBoundAboveTheListBound() {
        assertThat(Http2Limits.serverDefaults().maxHeaderBlockBytes())
                .isGreaterThanOrEqualTo(Http2Limits.serverDefaults().maxHeaderListSize());
        assertThatThrownBy(() -> new Http2Limits(16_384, 1000, 999, 4, 4096))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private static Http2Exception validateError(int id, long value) {
        return catchThrowableOfType(Http2Exception.class, () -> Http2Settings.validate(id, value));
    }
}
