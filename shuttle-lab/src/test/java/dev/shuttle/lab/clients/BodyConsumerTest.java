package dev.shuttle.lab.clients;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class BodyConsumerTest {

    /** Serves one JSON object, then fails if anyone asks for more: a decoder must stop at the '}'. */
    private static final class ObjectThenTrap extends InputStream {
        private final InputStream object = new ByteArrayInputStream("{\"a\":1}".getBytes(StandardCharsets.US_ASCII));
        boolean closed;

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = object.read(b, off, len);
            if (n < 0) {
                throw new AssertionError("the decoder read past the end of the JSON value");
            }
            return n;
        }

        @Override
        public void close() {
            closed = true;
        }
    }

    @Test
    void jsonDecodeReadsOneValueAndNeverAsksForTheEndOfTheBody() throws Exception {
        ObjectThenTrap body = new ObjectThenTrap();
        assertThat(BodyConsumer.consume(body, BodyUse.JSON_DECODE)).isEqualTo(7);
        assertThat(body.closed).as("closing is the adapter's job").isFalse();
    }

    @Test
    void readToEofCountsEveryByteAndCloseUnreadReadsNothing() throws Exception {
        assertThat(BodyConsumer.consume(new ByteArrayInputStream(new byte[5000]), BodyUse.READ_TO_EOF))
                .isEqualTo(5000);
        ObjectThenTrap untouched = new ObjectThenTrap();
        assertThat(BodyConsumer.consume(untouched, BodyUse.CLOSE_UNREAD)).isZero();
    }

    @Test
    void anEmptyBodyIsNotJson() {
        assertThatThrownBy(() -> BodyConsumer.consume(new ByteArrayInputStream(new byte[0]), BodyUse.JSON_DECODE))
                .isInstanceOf(IOException.class);
    }

    @Test
    void clientNamesParseAndUnknownOnesAreNamed() {
        assertThat(ClientKind.parseList("shuttle, okhttp,shuttle")).containsExactly(ClientKind.SHUTTLE,
                ClientKind.OKHTTP);
        assertThat(ClientKind.allNames())
                .isEqualTo("shuttle,shuttle-bounded,shuttle-none,shuttle-h2,jdk,okhttp,apache,jetty");
        assertThatThrownBy(() -> ClientKind.parseList("netty")).hasMessageContaining("unknown client 'netty'");
    }
}
