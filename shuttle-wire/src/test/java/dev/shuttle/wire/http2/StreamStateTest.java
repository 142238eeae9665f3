package dev.shuttle.wire.http2;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** RFC 9113 section 5.1's transitions, row by row. */
class StreamStateTest {
    static Stream<Arguments> transitions() {
        return Stream.of(
                row(StreamState.IDLE, "send HEADERS", s -> s.sentHeaders(false), StreamState.OPEN),
                row(StreamState.IDLE, "send HEADERS+ES", s -> s.sentHeaders(true), StreamState.HALF_CLOSED_LOCAL),
                row(StreamState.IDLE, "recv HEADERS", s -> s.receivedHeaders(false), StreamState.OPEN),
                row(StreamState.IDLE, "recv HEADERS+ES", s -> s.receivedHeaders(true), StreamState.HALF_CLOSED_REMOTE),
                row(StreamState.OPEN, "send ES", StreamState::sentEndStream, StreamState.HALF_CLOSED_LOCAL),
                row(StreamState.OPEN, "recv ES", StreamState::receivedEndStream, StreamState.HALF_CLOSED_REMOTE),
                row(StreamState.OPEN, "reset", StreamState::reset, StreamState.CLOSED),
                row(StreamState.HALF_CLOSED_LOCAL, "recv ES", StreamState::receivedEndStream, StreamState.CLOSED),
                row(StreamState.HALF_CLOSED_LOCAL, "recv trailers", s -> s.receivedHeaders(true), StreamState.CLOSED),
                row(StreamState.HALF_CLOSED_LOCAL, "reset", StreamState::reset, StreamState.CLOSED),
                row(StreamState.HALF_CLOSED_REMOTE, "send ES", StreamState::sentEndStream, StreamState.CLOSED),
                row(StreamState.HALF_CLOSED_REMOTE, "send trailers", s -> s.sentHeaders(true), StreamState.CLOSED),
                row(StreamState.HALF_CLOSED_REMOTE, "reset", StreamState::reset, StreamState.CLOSED),
                row(StreamState.CLOSED, "recv ES", StreamState::receivedEndStream, StreamState.CLOSED));
    }

    private static Arguments row(StreamState from, String event, UnaryOperator<StreamState> step, StreamState to) {
        return Arguments.of(from, event, step, to);
    }

    @ParameterizedTest(name = "{0} --{1}--> {3}")
    @MethodSource("transitions")
    void eachEventMovesAStreamAsRfc9113Draws(StreamState from, String event, UnaryOperator<StreamState> step,
                                             StreamState to) {
        assertThat(step.apply(from)).isEqualTo(to);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("sendReceive")
    void whoMayStillSend(StreamState state, boolean weMay, boolean peerMay) {
        assertThat(state.canSend()).isEqualTo(weMay);
        assertThat(state.canReceive()).isEqualTo(peerMay);
    }

    static Stream<Arguments> sendReceive() {
        return Stream.of(Arguments.of(StreamState.IDLE, false, false), Arguments.of(StreamState.OPEN, true, true),
                Arguments.of(StreamState.HALF_CLOSED_LOCAL, false, true),
                Arguments.of(StreamState.HALF_CLOSED_REMOTE, true, false),
                Arguments.of(StreamState.CLOSED, false, false));
    }
}
