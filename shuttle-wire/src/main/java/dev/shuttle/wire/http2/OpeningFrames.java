package dev.shuttle.wire.http2;

import java.util.List;

/**
 * The frames each side sends first (after the client's preface): its SETTINGS, as changes from the RFC's defaults,
 * and a WINDOW_UPDATE that raises the connection window from 65 535 to what it grants, since SETTINGS cannot.
 */
public final class OpeningFrames {
    private OpeningFrames() {
    }

    public static List<Http2Frame> of(Http2Settings local, int connectionWindow) {
        SettingsFrame settings = SettingsFrame.of(local.changesFrom(Http2Settings.DEFAULTS));
        int extra = connectionWindow - Http2Settings.DEFAULT_INITIAL_WINDOW_SIZE;
        return extra > 0 ? List.of(settings, new WindowUpdateFrame(0, extra)) : List.of(settings);
    }

    /** Octets the frames take. */
    public static int length(List<Http2Frame> frames) {
        int length = 0;
        for (Http2Frame frame : frames) {
            length += Http2FrameWriter.encodedLength(frame);
        }
        return length;
    }
}
