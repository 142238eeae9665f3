package dev.shuttle.server.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

class PercentDecoderTest {
    @Test
    void plusIsAPlusExceptInForms() {
        assertThat(PercentDecoder.decode("a+b%20c", false, true)).isEqualTo("a+b c");
        assertThat(PercentDecoder.decode("a+b%20c", true, true)).isEqualTo("a b c");
        assertThat(PercentDecoder.decode("%2B", true, true)).isEqualTo("+");
    }

    @Test
    void multiByteCharactersSpanSeveralEscapes() {
        assertThat(PercentDecoder.decode("%E2%82%AC%20and%C3%A9", false, true)).isEqualTo("€ andé");
        assertThat(PercentDecoder.decode("%e2%82%ac", false, true)).isEqualTo("€");
    }

    @Test
    void strictModeRefusesMalformedEscapesAndNonUtf8() {
        assertThatThrownBy(() -> PercentDecoder.decode("a%zzb", false, true))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("malformed");
        assertThatThrownBy(() -> PercentDecoder.decode("a%4", false, true))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> PercentDecoder.decode("%", false, true)).isInstanceOf(IllegalArgumentException.class);
        // Overlong "." (the IIS and Tomcat traversal encodings) and a lone continuation byte are not UTF-8.
        assertThatThrownBy(() -> PercentDecoder.decode("%c0%ae%c0%ae", false, true))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not UTF-8");
        assertThatThrownBy(() -> PercentDecoder.decode("%80", false, true))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void lenientModeKeepsWhatItCannotDecode() {
        assertThat(PercentDecoder.decode("a%zzb%41", false, false)).isEqualTo("a%zzbA");
        assertThat(PercentDecoder.decode("100%", false, false)).isEqualTo("100%");
        assertThat(PercentDecoder.decode("%c0%ae!", false, false)).isEqualTo("%c0%ae!");
    }

    @Test
    void decodesAWindowOfTheText() {
        assertThat(PercentDecoder.decode("xx%41yy", 2, 5, false, true)).isEqualTo("A");
        assertThat(PercentDecoder.decode("plain", 1, 4, false, true)).isEqualTo("lai");
    }

    @Property
    void decodingUndoesPercentEncodingOfAnyText(@ForAll String text) {
        String wellFormed = text.codePoints().filter(cp -> cp < 0xD800 || cp > 0xDFFF)
                .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append).toString();
        assertThat(PercentDecoder.decode(encodeAll(wellFormed), false, true)).isEqualTo(wellFormed);
        assertThat(PercentDecoder.decode(encodeAll(wellFormed), false, false)).isEqualTo(wellFormed);
    }

    @Property
    void anyInputDecodesLenientlyAndStrictlyOnlyFailsWithIllegalArgument(@ForAll String text) {
        PercentDecoder.decode(text, true, false);
        try {
            PercentDecoder.decode(text, false, true);
        } catch (IllegalArgumentException expected) {
            // a clear error is the only acceptable failure
        }
    }

    private static String encodeAll(String text) {
        StringBuilder encoded = new StringBuilder();
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            encoded.append('%').append(String.format("%02X", b & 0xff));
        }
        return encoded.toString();
    }
}
