package dev.shuttle.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class HeadersTest {
    private final Headers headers = Headers.of("Accept", "a", "X-Dup", "1", "accept", "b", "Connection", "keep-alive, Close");

    @Test
    void looksUpNamesCaseInsensitivelyAndKeepsOrderAndRepeats() {
        assertThat(headers.first("ACCEPT")).isEqualTo("a");
        assertThat(headers.all("accept")).containsExactly("a", "b");
        assertThat(headers.count("Accept")).isEqualTo(2);
        assertThat(headers.name(2)).isEqualTo("accept");
        assertThat(headers.first("missing")).isNull();
        assertThat(headers.all("missing")).isEmpty();
    }

    @Test
    void findsTokensInListValues() {
        assertThat(headers.containsToken("connection", "close")).isTrue();
        assertThat(headers.containsToken("Connection", "upgrade")).isFalse();
    }

    @Test
    void builderSetReplacesEveryFieldOfTheName() {
        Headers replaced = headers.toBuilder().set("ACCEPT", "c").build();

        assertThat(replaced.all("Accept")).containsExactly("c");
        assertThat(replaced.size()).isEqualTo(3);
    }

    @Test
    void rejectsInvalidNamesAndValues() {
        assertThatThrownBy(() -> Headers.of("Bad Name", "x")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Headers.of("X", "a\r\nInjected: 1")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Headers.of("X", "\u0100")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Headers.of("odd")).isInstanceOf(IllegalArgumentException.class);
    }
}
