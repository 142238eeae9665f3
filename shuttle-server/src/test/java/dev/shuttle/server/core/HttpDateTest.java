package dev.shuttle.server.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import org.junit.jupiter.api.Test;

class HttpDateTest {
    @Test
    void formatsImfFixdateWithATwoDigitDay() {
        assertThat(HttpDate.format(784_111_777L)).isEqualTo("Sun, 06 Nov 1994 08:49:37 GMT"); // RFC 9110's example
    }

    @Test
    void agreesWithTheJdkFormatterAcrossYearsMonthsAndLeapDays() {
        DateTimeFormatter reference =
                DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US).withZone(ZoneOffset.UTC);
        long[] fixed = {0, 951_782_400L /* 2000-02-29 */, 4_107_542_399L /* 2100-02-28 23:59:59 */,
                253_402_300_799L /* 9999-12-31 23:59:59 */};
        for (long second : fixed) {
            assertThat(HttpDate.format(second)).isEqualTo(reference.format(Instant.ofEpochSecond(second)));
        }
        // Every 1 000 003 seconds (about 11.6 days, so days, weekdays and times all vary) from 1970 to 2200.
        for (long second = 0; second < 7_258_118_400L; second += 1_000_003) {
            assertThat(HttpDate.format(second)).isEqualTo(reference.format(Instant.ofEpochSecond(second)));
        }
    }

    @Test
    void nowHasTheSameShape() {
        assertThat(HttpDate.now()).matches("[A-Z][a-z]{2}, \\d{2} [A-Z][a-z]{2} \\d{4} \\d{2}:\\d{2}:\\d{2} GMT");
    }
}
