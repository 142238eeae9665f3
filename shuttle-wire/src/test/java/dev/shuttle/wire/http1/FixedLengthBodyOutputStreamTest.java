package dev.shuttle.wire.http1;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import org.junit.jupiter.api.Test;

class FixedLengthBodyOutputStreamTest {
    private final ByteArrayOutputStream wire = new ByteArrayOutputStream();

    @Test
    void writesExactlyTheDeclaredLength() throws Exception {
        FixedLengthBodyOutputStream body = new FixedLengthBodyOutputStream(wire, 4);
        body.write(new byte[] {1, 2, 3});
        body.write(4);
        body.close();

        assertThat(wire.toByteArray()).containsExactly(1, 2, 3, 4);
        assertThat(body.written()).isEqualTo(4);
    }

    @Test
    void writingMoreThanDeclaredThrowsAtOnce() throws Exception {
        FixedLengthBodyOutputStream body = new FixedLengthBodyOutputStream(wire, 2);
        body.write(1);

        assertThatThrownBy(() -> body.write(new byte[2])).isInstanceOf(IOException.class)
                .hasMessageContaining("exceeds its Content-Length");
        assertThat(wire.size()).isEqualTo(1);
    }

    @Test
    void closingShortThrows() throws Exception {
        FixedLengthBodyOutputStream body = new FixedLengthBodyOutputStream(wire, 5);
        body.write(1);

        assertThatThrownBy(body::close).isInstanceOf(IOException.class).hasMessageContaining("1 of 5");
    }
}
