package dev.shuttle.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class QueryParametersTest {
    @Test
    void decodesNamesAndValuesInOrder() {
        QueryParameters query = QueryParameters.parse("q=a%20b&lang=fr&q=%E2%82%AC&flag&empty=&=anon");
        assertThat(query.names()).containsExactly("q", "lang", "flag", "empty", "");
        assertThat(query.all("q")).containsExactly("a b", "€");
        assertThat(query.first("lang")).isEqualTo("fr");
        assertThat(query.first("flag")).isEmpty();
        assertThat(query.first("empty")).isEmpty();
        assertThat(query.first("")).isEqualTo("anon");
        assertThat(query.first("missing")).isNull();
        assertThat(query.all("missing")).isEmpty();
    }

    @Test
    void plusIsAPlusInAQueryAndASpaceInAForm() {
        assertThat(QueryParameters.parse("q=1+1").first("q")).isEqualTo("1+1");
        assertThat(QueryParameters.parseForm("q=1+1&r=%2B").toMap())
                .containsEntry("q", List.of("1 1")).containsEntry("r", List.of("+"));
    }

    @Test
    void emptyPairsAreSkippedAndMalformedEscapesKept() {
        QueryParameters query = QueryParameters.parse("&&a=1&&b=%zz&");
        assertThat(query.names()).containsExactly("a", "b");
        assertThat(query.first("b")).isEqualTo("%zz");
        assertThat(QueryParameters.parse(null)).isSameAs(QueryParameters.EMPTY);
        assertThat(QueryParameters.parse("")).isSameAs(QueryParameters.EMPTY);
    }

    @Test
    void onlyTheFirstEqualsSignSeparates() {
        assertThat(QueryParameters.parse("expr=a=b").first("expr")).isEqualTo("a=b");
    }
}
