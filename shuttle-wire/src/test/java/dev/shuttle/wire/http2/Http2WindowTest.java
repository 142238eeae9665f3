package dev.shuttle.wire.http2;

import static dev.shuttle.wire.http2.Http2FrameReaderTest.assertConnectionError;
import static dev.shuttle.wire.http2.Http2FrameReaderTest.assertStreamError;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import org.junit.jupiter.api.Test;

class Http2WindowTest {

    @Test
    void sendingTakesFromTheWindowAndUpdatesGiveBack() throws Exception {
        Http2Window window = new Http2Window(1, 65_535);

        window.consume(65_535);
        assertThat(window.available()).isZero();
        window.increase(1000);

        assertThat(window.size()).isEqualTo(1000);
    }

    @Test
    void sendingMoreThanTheWindowIsOurBug() {
        Http2Window window = new Http2Window(1, 10);

        assertThatThrownBy(() -> window.consume(11)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void updatePastTwoToThe31MinusOneIsAStreamFlowControlErrorOnAStream() throws Exception {
        Http2Window window = new Http2Window(3, Integer.MAX_VALUE - 5);
        window.increase(5);

        assertStreamError(catchThrowableOfType(Http2Exception.class, () -> window.increase(1)), 3,
                Http2ErrorCode.FLOW_CONTROL_ERROR);
        assertThat(window.size()).isEqualTo(Integer.MAX_VALUE);
    }

    @Test
    void updatePastTwoToThe31MinusOneIsAConnectionFlowControlErrorOnTheConnection() {
        Http2Window window = new Http2Window(0, 65_535);

        assertConnectionError(catchThrowableOfType(Http2Exception.class, () -> window.increase(Integer.MAX_VALUE)),
                Http2ErrorCode.FLOW_CONTROL_ERROR);
    }

    @Test
    void loweringTheInitialSizeCanMakeAStreamWindowNegative() throws Exception {
        Http2Window window = new Http2Window(1, 65_535);
        window.consume(60_000);

        window.adjustInitialSize(65_535, 16_384);

        assertThat(window.size()).isEqualTo(16_384 - 60_000);
        assertThat(window.available()).isZero();
        window.increase(50_000);
        assertThat(window.available()).isEqualTo(16_384 - 60_000 + 50_000);
    }

    @Test
    void raisingTheInitialSizePastTheMaximumIsAConnectionError() throws Exception {
        Http2Window window = new Http2Window(1, 65_535);
        window.increase(Integer.MAX_VALUE - 65_535);

        assertConnectionError(catchThrowableOfType(Http2Exception.class,
                () -> window.adjustInitialSize(65_535, 65_536)), Http2ErrorCode.FLOW_CONTROL_ERROR);
    }

    @Test
    void peerSendingMoreThanTheReceiveWindowIsAFlowControlError() throws Exception {
        Http2Window stream = new Http2Window(5, 100);
        Http2Window connection = new Http2Window(0, 100);
        stream.receive(100);
        connection.receive(100);

        assertStreamError(catchThrowableOfType(Http2Exception.class, () -> stream.receive(1)), 5,
                Http2ErrorCode.FLOW_CONTROL_ERROR);
        assertConnectionError(catchThrowableOfType(Http2Exception.class, () -> connection.receive(1)),
                Http2ErrorCode.FLOW_CONTROL_ERROR);
    }

    @Test
    void initialSizeChangesDoNotApplyToTheConnectionWindow() {
        assertThatThrownBy(() -> new Http2Window(0, 65_535).adjustInitialSize(65_535, 1))
                .isInstanceOf(IllegalStateException.class);
    }
}
