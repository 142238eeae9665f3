package dev.shuttle.wire.http2;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.ByteBuffer;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import org.junit.jupiter.api.Timeout;

/**
 * Fuzzes the shared HTTP/2 state core as a connection drives it: frames a peer controls, read by the frame reader and
 * applied by {@link CoreReceiver} (a minimal server or client receiver, as {@code shuttle-server}'s and
 * {@code shuttle-client}'s {@code FrameReceiver}/{@code Http2Streams} apply them) to {@link StreamTable},
 * {@link StreamState}, {@link PeerStreamIds}/{@link OwnStreamIds}, {@link ReceiveWindows}, {@link SendWindows} and
 * {@link ReceivedBody} in a {@link ChunkPool}, interleaved with what the application does (reads, drops, opens, ends,
 * sends). Whatever the input: only {@link Http2Exception} escapes; the send windows follow their arithmetic and never
 * pass 2^31-1; a stream's unread body never exceeds the window we granted it and reads back exactly what arrived;
 * every octet that counted against the connection receive window comes back exactly once when the streams are
 * dropped; every chunk returns to the pool once.
 *
 * <p>Input: one octet of setup ({@link CoreReceiver#CoreReceiver}), then steps: an octet whose value mod 8 is 0-3 is
 * followed by one frame (wire format), 4-7 by an application action's two octets ({@link CoreReceiver#act}).
 * {@code mvn verify} replays the seeds under {@code src/test/resources/.../Http2StreamCoreFuzzTestInputs/}; the pom's
 * {@code fuzz-http2-core} surefire execution fuzzes it for {@code maxDuration}.
 */
class Http2StreamCoreFuzzTest {
    @FuzzTest(maxDuration = "10s")
    @Timeout(10)
    void streamCoreOnlyEverThrowsHttp2Exception(byte[] input) {
        if (input.length == 0) {
            return;
        }
        ByteBuffer in = ByteBuffer.wrap(input);
        ChunkPool pool = new ChunkPool();
        Set<byte[]> chunks = Collections.newSetFromMap(new IdentityHashMap<>());
        for (int i = 0; i < ChunkPool.MAX_FREE; i++) { // every chunk a run needs is one of these: see CoreReceiver
            byte[] chunk = new byte[ChunkPool.CHUNK_BYTES];
            chunks.add(chunk);
            pool.give(chunk);
        }
        CoreReceiver receiver = new CoreReceiver(in.get(), pool);
        try {
            run(receiver, in);
        } catch (Http2Exception e) {
            assertThat(e.isConnectionError()).as("stream errors reset their stream: " + e).isTrue();
        }
        receiver.dropAll();
        receiver.checkConnectionCreditWhole();
        assertThat(pool.free()).as("every chunk back in the pool").isEqualTo(ChunkPool.MAX_FREE);
        Set<byte[]> back = Collections.newSetFromMap(new IdentityHashMap<>());
        for (int i = 0; i < ChunkPool.MAX_FREE; i++) {
            back.add(pool.take());
        }
        assertThat(back).as("each chunk given back once").hasSize(ChunkPool.MAX_FREE).isEqualTo(chunks);
    }

    private static void run(CoreReceiver receiver, ByteBuffer in) throws Http2Exception {
        while (in.hasRemaining()) {
            int op = in.get() & 0xff;
            if (op % 8 < 4) {
                Http2Frame frame;
                try {
                    frame = receiver.reader.read(in);
                } catch (Http2Exception e) {
                    if (e.isConnectionError()) {
                        throw e;
                    }
                    receiver.streamError(e); // a malformed frame of one stream (PRIORITY's length, say)
                    continue;
                }
                if (frame == null) {
                    return; // the input ends inside a frame
                }
                receiver.receive(frame);
            } else if (in.remaining() >= 2) {
                receiver.act(op % 8, in.get() & 0xff, in.get() & 0xff);
            } else {
                return;
            }
            receiver.checkStep();
        }
    }
}
