package dev.shuttle.wire.http2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class SendWindowsTest {
    private static final int MAX_FRAME = 16_384;

    @ParameterizedTest(name = "stream {0}, connection {1}, wanted {2} -> {3}")
    @CsvSource({
            // stream window, connection window, wanted, granted
            "65535, 65535, 100, 100",
            "65535, 65535, 100000, 16384", // the frame size
            "10, 65535, 100, 10",          // the stream's window
            "65535, 10, 100, 10",          // the connection's
            "0, 65535, 100, 0",
            "65535, 0, 100, 0",
    })
    void aGrantIsTheLeastOfWhatIsWantedBothWindowsAndTheFrameSize(int streamWindow, int connectionWindow, int wanted,
                                                                  int granted) throws Exception {
        SendWindows windows = new SendWindows();
        windows.initialWindowSize(streamWindow, List.of());
        SendWindows.Stream stream = windows.open(1);
        windows.take(windows.open(3), 65_535 - connectionWindow, Integer.MAX_VALUE); // spend the connection's
        assertThat(windows.connectionAvailable()).isEqualTo(connectionWindow);
        assertThat(windows.take(stream, wanted, MAX_FRAME)).isEqualTo(granted);
        assertThat(stream.available()).isEqualTo(streamWindow - granted);
        assertThat(windows.connectionAvailable()).isEqualTo(connectionWindow - granted);
    }

    /** Over any sequence of takes and updates, no grant exceeds what either window allowed at the time. */
    @Property(tries = 300)
    void grantsNeverExceedEitherWindow(@ForAll @Size(max = 60) List<@IntRange(min = -40_000, max = 40_000) Integer> ops)
            throws Exception {
        SendWindows windows = new SendWindows();
        SendWindows.Stream a = windows.open(1);
        SendWindows.Stream b = windows.open(3);
        long connectionSent = 0;
        long connectionCredit = 65_535;
        for (int i = 0; i < ops.size(); i++) {
            int op = ops.get(i);
            SendWindows.Stream stream = i % 2 == 0 ? a : b;
            if (op >= 0) {
                int before = Math.min(stream.available(), windows.connectionAvailable());
                int granted = windows.take(stream, op, MAX_FRAME);
                assertThat(granted).isBetween(0, Math.min(before, Math.min(op, MAX_FRAME)));
                connectionSent += granted;
            } else if (connectionCredit - connectionSent + -op <= Integer.MAX_VALUE) {
                windows.update(i % 3 == 0 ? null : stream, -op);
                if (i % 3 == 0) {
                    connectionCredit += -op;
                }
            }
            assertThat(windows.connectionAvailable()).isEqualTo((int) Math.max(0, connectionCredit - connectionSent));
        }
    }

    @Test
    void aSmallerInitialWindowMayMakeAStreamNegativeAndItWaitsUntilUpdatesLiftIt() throws Exception {
        SendWindows windows = new SendWindows();
        SendWindows.Stream stream = windows.open(1);
        assertThat(windows.take(stream, 16_384, MAX_FRAME)).isEqualTo(16_384);
        windows.initialWindowSize(1_000, List.of(stream));
        assertThat(stream.size()).isEqualTo(1_000 - 16_384);
        assertThat(windows.take(stream, 100, MAX_FRAME)).isZero();
        windows.update(stream, 15_384);
        assertThat(stream.size()).isZero();
        assertThat(windows.take(stream, 100, MAX_FRAME)).isZero();
        windows.update(stream, 100);
        assertThat(windows.take(stream, 100, MAX_FRAME)).isEqualTo(100);
        assertThat(windows.open(3).available()).as("a new stream starts at the new size").isEqualTo(1_000);
    }

    @Test
    void aWindowPastTwoToTheThirtyOneIsAFlowControlErrorOfItsScope() throws Exception {
        SendWindows windows = new SendWindows();
        SendWindows.Stream stream = windows.open(5);
        assertThatThrownBy(() -> windows.update(stream, Integer.MAX_VALUE))
                .isInstanceOfSatisfying(Http2Exception.class, e -> assertThat(e.isConnectionError()).isFalse());
        assertThatThrownBy(() -> windows.update(null, Integer.MAX_VALUE))
                .isInstanceOfSatisfying(Http2Exception.class, e -> assertThat(e.isConnectionError()).isTrue());
        assertThatCode(() -> windows.initialWindowSize(Integer.MAX_VALUE, List.of(windows.open(7))))
                .as("65 535 moved up to exactly 2^31-1").doesNotThrowAnyException();
    }

    @Test
    void takingExactlyTakesAllOrNothing() {
        SendWindows windows = new SendWindows();
        SendWindows.Stream stream = windows.open(1);
        assertThat(windows.takeExactly(stream, 70_000)).isFalse();
        assertThat(stream.available()).isEqualTo(65_535);
        assertThat(windows.takeExactly(stream, 65_535)).isTrue();
        assertThat(windows.connectionAvailable()).isZero();
    }

    @Test
    void aRefundGivesBackWhatWasTakenForAFrameNeverSent() {
        SendWindows windows = new SendWindows();
        SendWindows.Stream stream = windows.open(1);
        windows.take(stream, 1_000, MAX_FRAME);
        windows.refund(stream, 1_000);
        assertThat(stream.available()).isEqualTo(65_535);
        assertThat(windows.connectionAvailable()).isEqualTo(65_535);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
            "credit back for every octet sent, 9, 9, false, true",
            "credit back for part of what was sent, 9, 4, false, true",
            "'more than was sent, on the connection', 9, 10, true, false",
            "'a stream''s first update, growing it', 0, 1048576, false, true",
    })
    void anUpdateIsOrdinaryWhenItGivesBackCreditOrFirstGrowsAStream(String what, int sent, int increment,
                                                                    boolean onConnection, boolean ordinary)
            throws Exception {
        SendWindows windows = new SendWindows();
        SendWindows.Stream stream = windows.open(1);
        windows.take(stream, sent, MAX_FRAME);
        assertThat(windows.update(onConnection ? null : stream, increment)).as(what).isEqualTo(ordinary);
    }

    @Test
    void creditOwedIsSpentByTheUpdatesThatReturnIt() throws Exception {
        SendWindows windows = new SendWindows();
        SendWindows.Stream stream = windows.open(1);
        windows.take(stream, 9, MAX_FRAME);
        assertThat(windows.update(null, 9)).isTrue();
        assertThat(windows.update(null, 1)).as("nothing is owed any more").isFalse();
        assertThat(windows.update(stream, 9)).as("the stream's first").isTrue();
        assertThat(windows.update(stream, 1)).as("the stream owes nothing and was updated before").isFalse();
    }
}
