package dev.shuttle.wire.http2;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class OpeningFramesTest {
    @Test
    void settingsCarryOnlyChangesFromTheDefaultsAndAWindowUpdateRaisesTheConnectionWindow() {
        Http2Settings local = Http2Settings.DEFAULTS.with(Http2Settings.ENABLE_PUSH, 0)
                .with(Http2Settings.INITIAL_WINDOW_SIZE, 1 << 20);
        List<Http2Frame> frames = OpeningFrames.of(local, 16 << 20);
        assertThat(frames.get(0)).isInstanceOfSatisfying(SettingsFrame.class, s -> assertThat(s.settings())
                .extracting(SettingsFrame.Setting::id)
                .containsExactlyInAnyOrder(Http2Settings.ENABLE_PUSH, Http2Settings.INITIAL_WINDOW_SIZE));
        assertThat(frames.get(1)).isEqualTo(new WindowUpdateFrame(0, (16 << 20) - 65_535));
        assertThat(OpeningFrames.length(frames)).isEqualTo(9 + 12 + 9 + 4);
    }

    @Test
    void theRfcsConnectionWindowNeedsNoWindowUpdate() {
        assertThat(OpeningFrames.of(Http2Settings.DEFAULTS, 65_535)).singleElement().isInstanceOf(SettingsFrame.class);
    }
}
