package dev.shuttle.server.http1;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class HttpDateTest {
    @Test
    void formatsImfFixdateWithATwoDigitDay() {
        assertThat(HttpDate.format(784_111_777L)).isEqualTo("Sun, 06 Nov 1994 08:49:37 GMT"); // RFC 9110's example
    }

    @Test
    void nowHasTheSameShape() {
        assertThat(HttpDate.now()).matches("[A-Z][a-z]{2}, \\d{2} [A-Z][a-z]{2} \\d{4} \\d{2}:\\d{2}:\\d{2} GMT");
    }
}
