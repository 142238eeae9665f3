package dev.shuttle.wire.http1;

import static dev.shuttle.wire.http1.Bytes.latin1;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.shuttle.wire.Headers;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ChunkedBodyOutputStreamTest {
    private final TrackingOutputStream wire = new TrackingOutputStream();
    private final ChunkedBodyOutputStream chunked = new ChunkedBodyOutputStream(wire);

    @Test
    void eachWriteIsOneChunkWithAHexSize() throws Exception {
        chunked.write(latin1("hello"));
        chunked.write('!');
        chunked.write(new byte[26], 0, 26);
        chunked.write(new byte[256]);

        assertThat(wire.text()).startsWith("5\r\nhello\r\n1\r\n!\r\n1a\r\n").contains("\r\n100\r\n");
    }

    @Test
    void emptyWritesAreSkippedSinceAZeroChunkWouldEndTheBody() throws Exception {
        chunked.write(new byte[0]);
        chunked.write(latin1("abc"), 1, 0);

        assertThat(wire.size()).isZero();
    }

    @Test
    void finishWritesTheLastChunkAndTrailers() throws Exception {
        chunked.write(latin1("ab"));
        chunked.finish(Headers.of("Checksum", "x", "Checksum", "y"));

        assertThat(wire.text()).isEqualTo("2\r\nab\r\n0\r\nChecksum: x\r\nChecksum: y\r\n\r\n");
    }

    @Test
    void finishIsIdempotentAndCloseDoesNotCloseTheUnderlyingStream() throws Exception {
        chunked.finish(Headers.EMPTY);
        chunked.finish(Headers.of("Late", "1"));
        chunked.close();

        assertThat(wire.text()).isEqualTo("0\r\n\r\n");
        assertThat(wire.closed).isFalse();
    }

    @Test
    void writingAfterFinishThrows() throws Exception {
        chunked.close();

        assertThatThrownBy(() -> chunked.write(1)).isInstanceOf(IOException.class).hasMessageContaining("finished");
        assertThatThrownBy(() -> chunked.write(new byte[3])).isInstanceOf(IOException.class);
    }

    @Test
    void flushFlushesTheUnderlyingStream() throws Exception {
        chunked.flush();

        assertThat(wire.flushes).isEqualTo(1);
    }

    private static final class TrackingOutputStream extends ByteArrayOutputStream {
        boolean closed;
        int flushes;

        @Override
        public void close() {
            closed = true;
        }

        @Override
        public void flush() {
            flushes++;
        }

        String text() {
            return toString(StandardCharsets.ISO_8859_1);
        }
    }
}
