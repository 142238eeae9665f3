package dev.shuttle.server.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class PathSegmentsTest {
    @Test
    void splitsBeforeDecodingSoAnEncodedSlashStaysInItsSegment() {
        assertThat(PathSegments.decode("/a%2Fb/c+d")).containsExactly("a/b", "c+d");
        assertThat(PathSegments.decode("/files/My%20Doc.txt")).containsExactly("files", "My Doc.txt");
    }

    @Test
    void trailingSlashAndRootGiveAnEmptyLastSegment() {
        assertThat(PathSegments.decode("/a/")).containsExactly("a", "");
        assertThat(PathSegments.decode("/")).containsExactly("");
        assertThat(PathSegments.decode("//")).containsExactly("", "");
    }

    @Test
    void noSegmentsForTheAsteriskOrAuthorityForm() {
        assertThat(PathSegments.decode("*")).isEmpty();
        assertThat(PathSegments.decode("")).isEmpty();
    }

    @Test
    void malformedEscapesAreAnError() {
        assertThatThrownBy(() -> PathSegments.decode("/a/%zz")).isInstanceOf(IllegalArgumentException.class);
    }
}
