package dev.shuttle.wire.http2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class ReceiveWindowsTest {
    @Test
    void paddingIsCreditedOnArrivalAndThePayloadAsItIsRead() throws Exception {
        ReceiveWindows windows = new ReceiveWindows(100, 100);
        windows.settingsAcknowledged(); // the peer holds to our windows
        ReceiveWindows.Stream stream = windows.open(1);
        assertThat(windows.receive(stream, 60, 10)).as("50 octets of padding: the stream's half window").isEqualTo(50);
        assertThat(windows.takeConnectionUpdate()).as("half the window, all padding").isEqualTo(50);
        assertThat(windows.streamConsumed(stream, 10)).isZero();
        windows.connectionConsumed(10);
        assertThat(windows.takeConnectionUpdate()).isZero();
        windows.receive(stream, 40, 40);
        assertThat(windows.streamConsumed(stream, 40)).as("50 of the stream's consumed").isEqualTo(50);
        windows.connectionConsumed(40);
        assertThat(windows.takeConnectionUpdate()).isEqualTo(50);
    }

    @Test
    void aStreamOpenedBeforeThePeerAcknowledgedASmallerWindowGetsTheDefault() throws Exception {
        ReceiveWindows windows = new ReceiveWindows(1 << 20, 1_024);
        ReceiveWindows.Stream early = windows.open(1);
        windows.receive(early, Http2Settings.DEFAULT_INITIAL_WINDOW_SIZE, Http2Settings.DEFAULT_INITIAL_WINDOW_SIZE);
        windows.settingsAcknowledged();
        ReceiveWindows.Stream late = windows.open(3);
        assertThatThrownBy(() -> windows.receive(late, 1_025, 1_025)).isInstanceOfSatisfying(Http2Exception.class,
                e -> assertThat(e.isConnectionError()).isFalse());
    }

    @Test
    void aHeavilyPaddedBodyNeverShrinksItsStreamsWindow() throws Exception {
        int window = 16_384;
        ReceiveWindows windows = new ReceiveWindows(window, window);
        windows.settingsAcknowledged(); // the peer holds to our windows
        ReceiveWindows.Stream stream = windows.open(1);
        long streamCredit = 0;
        for (int frame = 0; frame < 1_000; frame++) { // 1 MB through a 16 KiB stream window, 99 % of it padding
            streamCredit += windows.receive(stream, 1_000, 10);
            streamCredit += windows.streamConsumed(stream, 10); // the reader takes the payload
            windows.connectionConsumed(10);
            windows.takeConnectionUpdate();
        }
        assertThat(streamCredit).as("all but what waits below half a window came back")
                .isGreaterThan(1_000L * 1_000 - window / 2);
    }

    @Test
    void overrunningAStreamResetsItButItsOctetsCameOutOfTheConnectionAndGoBack() throws Exception {
        ReceiveWindows windows = new ReceiveWindows(1_000, 100);
        windows.settingsAcknowledged(); // the peer holds to our windows
        ReceiveWindows.Stream stream = windows.open(1);
        assertThatThrownBy(() -> windows.receive(stream, 600, 600))
                .isInstanceOfSatisfying(Http2Exception.class, e -> {
                    assertThat(e.isConnectionError()).isFalse();
                    assertThat(e.error()).isEqualTo(Http2ErrorCode.FLOW_CONTROL_ERROR);
                });
        assertThat(windows.takeConnectionUpdate()).as("credited back at once").isEqualTo(600);
    }

    @Test
    void overrunningTheConnectionIsAConnectionError() throws Exception {
        ReceiveWindows windows = new ReceiveWindows(100, 1_000);
        windows.settingsAcknowledged(); // the peer holds to our windows
        assertThatThrownBy(() -> windows.receive(windows.open(1), 101, 101))
                .isInstanceOfSatisfying(Http2Exception.class, e -> assertThat(e.isConnectionError()).isTrue());
    }

    @Test
    void aFrameForNoStreamIsCreditedBackWhole() throws Exception {
        ReceiveWindows windows = new ReceiveWindows(100, 100);
        windows.settingsAcknowledged(); // the peer holds to our windows
        windows.receive(null, 70, 60);
        assertThat(windows.takeConnectionUpdate()).isEqualTo(70);
    }

    /**
     * However frames, padding, reads and drops interleave, every octet that came out of the connection window comes
     * back exactly once: after everything is consumed, what was credited plus what waits below half a window is all
     * that arrived, and the window is whole again.
     */
    @Property(tries = 300)
    void everyOctetComesBackToTheConnectionExactlyOnce(
            @ForAll @Size(max = 80) List<@IntRange(min = 0, max = 3_000) Integer> frames) throws Exception {
        int window = 100_000;
        ReceiveWindows windows = new ReceiveWindows(window, window);
        windows.settingsAcknowledged(); // the peer holds to our windows
        ReceiveWindows.Stream stream = windows.open(1);
        long arrived = 0;
        long credited = 0;
        long unread = 0;
        int i = 0;
        for (int frame : frames) {
            int payload = frame - frame % 7;
            if (arrived - credited + frame > window) {
                break;
            }
            windows.receive(i % 5 == 4 ? null : stream, frame, payload);
            arrived += frame;
            if (i % 5 != 4) {
                unread += payload;
            }
            if (i % 3 == 0) {
                windows.connectionConsumed(unread); // read, or dropped by a reset: either way consumed
                unread = 0;
            }
            credited += windows.takeConnectionUpdate();
            i++;
        }
        windows.connectionConsumed(unread);
        credited += windows.takeConnectionUpdate();
        assertThat(credited).isLessThanOrEqualTo(arrived);
        assertThat(arrived - credited).as("left below half a window").isLessThan(window / 2);
    }
}
