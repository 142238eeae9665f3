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

    @Test
    void aBuilderChangedAfterBuildLeavesWhatItBuiltAlone() {
        Headers.Builder builder = Headers.builder();
        for (int i = 0; i < 4; i++) {
            builder.add("X-" + i, "v" + i); // exactly fills the builder's first array
        }
        Headers full = builder.build();
        Headers removed = builder.remove("x-1").build();
        Headers added = builder.add("X-4", "v4").build();
        Headers partial = builder.build();

        assertThat(full).isEqualTo(Headers.of("X-0", "v0", "X-1", "v1", "X-2", "v2", "X-3", "v3"));
        assertThat(removed).isEqualTo(Headers.of("X-0", "v0", "X-2", "v2", "X-3", "v3"));
        assertThat(added).isEqualTo(Headers.of("X-0", "v0", "X-2", "v2", "X-3", "v3", "X-4", "v4"));
        assertThat(partial).isEqualTo(added);
        assertThat(builder.size()).isEqualTo(4);
        assertThat(full.toBuilder().remove("X-0").set("X-2", "w").build())
                .isEqualTo(Headers.of("X-1", "v1", "X-3", "v3", "X-2", "w"));
        assertThat(Headers.EMPTY.toBuilder().add("A", "1").build()).isEqualTo(Headers.of("A", "1"));
        assertThat(full).isEqualTo(Headers.of("X-0", "v0", "X-1", "v1", "X-2", "v2", "X-3", "v3"));
    }
}
