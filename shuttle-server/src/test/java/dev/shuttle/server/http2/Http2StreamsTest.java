package dev.shuttle.server.http2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.shuttle.wire.http2.Http2ErrorCode;
import dev.shuttle.wire.http2.Http2Exception;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/**
 * The server's stream registry on the reader's side: the connection window's account of DATA nobody reads (a stream
 * overrun, a body its handler ignored), and frames that arrive on streams we reset.
 */
class Http2StreamsTest {
    private static final int STREAM_WINDOW = 1_000;
    private static final int CONNECTION_WINDOW = 10_000;

    @Test
    void dataOverrunningAStreamWindowIsAStreamErrorAndItsBytesGoBackToTheConnectionWindow() throws Exception {
        Http2Streams streams = new Http2Streams(STREAM_WINDOW, CONNECTION_WINDOW, delta -> { });
        streams.settingsAcknowledged(); // the client holds to our windows
        long credited = 0;
        // Twenty streams each overrun their window by one byte: 20 020 bytes in all, twice the connection window.
        // Without the credit the connection window runs dry at the tenth, a connection error that ends every stream.
        for (int i = 0; i < 20; i++) {
            int id = 1 + 2 * i;
            streams.open(id);
            Http2Exception overrun = catchThrowableOfType(Http2Exception.class,
                    () -> streams.dataReceived(id, ByteBuffer.allocate(STREAM_WINDOW + 1), STREAM_WINDOW + 1, false));
            assertThat(overrun.isConnectionError()).as("stream %d", id).isFalse();
            assertThat(overrun.error()).isEqualTo(Http2ErrorCode.FLOW_CONTROL_ERROR);
            // What the session does for a stream error: reset the stream, send the credit the frame still owes.
            streams.reset(id, overrun.error(), false);
            credited += streams.takeConnectionUpdate();
        }
        // Updates go out per half window consumed: all but the last, unsent half window came back.
        assertThat(credited).isGreaterThan(20L * (STREAM_WINDOW + 1) - CONNECTION_WINDOW / 2);
        // And the connection still takes a frame as large as its whole window.
        streams.open(41);
        Http2Exception overrun = catchThrowableOfType(Http2Exception.class,
                () -> streams.dataReceived(41, ByteBuffer.allocate(STREAM_WINDOW + 1), STREAM_WINDOW + 1, false));
        assertThat(overrun.isConnectionError()).isFalse();
    }

    @Test
    void aRequestBodyItsHandlerNeverReadGoesBackToTheConnectionWindowWhenTheHandlerReturns() throws Exception {
        Http2Streams streams = new Http2Streams(STREAM_WINDOW, CONNECTION_WINDOW, delta -> { });
        streams.settingsAcknowledged(); // the client holds to our windows
        // Twenty requests each send a whole 1 000-byte body, twice the connection window in all; each handler answers
        // without reading it. Without the credit, the eleventh body is a connection FLOW_CONTROL_ERROR.
        for (int i = 0; i < 20; i++) {
            int id = 1 + 2 * i;
            Http2Stream stream = streams.open(id);
            streams.dataReceived(id, ByteBuffer.allocate(STREAM_WINDOW), STREAM_WINDOW, true);
            streams.localEnded(stream); // the response went out
            streams.handlerDone(stream);
            streams.takeConnectionUpdate();
        }
        assertThat(streams.ids()).isEmpty();
    }

    @Test
    void dataOnAStreamWeResetIsIgnoredForTheLastResetsOnlyThenItIsAStreamError() throws Exception {
        Http2Streams streams = new Http2Streams(STREAM_WINDOW, 1 << 30, delta -> { });
        streams.settingsAcknowledged(); // the client holds to our windows
        int streamsReset = dev.shuttle.wire.http2.RecentResets.SIZE + 1;
        for (int i = 0; i < streamsReset; i++) {
            int id = 1 + 2 * i;
            Http2Stream stream = streams.open(id);
            streams.handlerDone(stream); // answered early: the upload is reset with NO_ERROR and leaves the registry
            streams.reset(id, Http2ErrorCode.NO_ERROR, false);
        }
        int newest = 1 + 2 * (streamsReset - 1);
        streams.dataReceived(newest, ByteBuffer.allocate(10), 10, false); // in flight before our reset: ignored
        Http2Exception tooLate = catchThrowableOfType(Http2Exception.class,
                () -> streams.dataReceived(1, ByteBuffer.allocate(10), 10, false));
        assertThat(tooLate.isConnectionError()).isFalse();
        assertThat(tooLate.error()).isEqualTo(Http2ErrorCode.STREAM_CLOSED);
    }

    /**
     * The handler answered and returned before the upload ended; the rest of the body, END_STREAM with it, arrives
     * before the session's NO_ERROR reset (the handler's thread has yet to send it). Those bytes counted against the
     * connection window and must come back to it, with the reset or with the stream's close.
     */
    @Test
    void theEndOfAnUploadArrivingAfterItsHandlerReturnedGoesBackToTheConnectionWindow() throws Exception {
        Http2Streams streams = new Http2Streams(STREAM_WINDOW, CONNECTION_WINDOW, delta -> { });
        streams.settingsAcknowledged(); // the client holds to our windows
        long credited = 0;
        // Twenty such bodies of 1 000 bytes, twice the connection window: without the credit, the eleventh is a
        // connection FLOW_CONTROL_ERROR, as the connection stalls in practice.
        for (int i = 0; i < 20; i++) {
            int id = 1 + 2 * i;
            Http2Stream stream = streams.open(id);
            streams.localEnded(stream); // the response went out
            assertThat(streams.handlerDone(stream)).as("upload unfinished: the session resets it").isTrue();
            streams.dataReceived(id, ByteBuffer.allocate(STREAM_WINDOW), STREAM_WINDOW, true);
            streams.reset(id, Http2ErrorCode.NO_ERROR, false); // what HandlerRun.done does next
            credited += streams.takeConnectionUpdate();
        }
        assertThat(credited).isGreaterThan(20L * STREAM_WINDOW - CONNECTION_WINDOW / 2);
        assertThat(streams.ids()).isEmpty();
    }
}
