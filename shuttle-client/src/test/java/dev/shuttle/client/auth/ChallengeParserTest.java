package dev.shuttle.client.auth;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.client.AuthChallenge;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** RFC 9110 11.6.1 challenges, including the forms real servers send. */
class ChallengeParserTest {
    private static List<AuthChallenge> parse(String... values) {
        return ChallengeParser.parse(List.of(values));
    }

    @Test
    void oneBasicChallengeWithParameters() {
        assertThat(parse("Basic realm=\"api\", charset=\"UTF-8\"")).containsExactly(
                new AuthChallenge("Basic", Map.of("realm", "api", "charset", "UTF-8")));
    }

    @Test
    void severalChallengesInOneFieldAndAcrossFields() {
        assertThat(parse("Newauth realm=\"apps\", type=1, title=\"Login to \\\"apps\\\"\", Basic realm=\"simple\"",
                "Bearer"))
                .containsExactly(
                        new AuthChallenge("Newauth", Map.of("realm", "apps", "type", "1", "title",
                                "Login to \"apps\"")),
                        new AuthChallenge("Basic", Map.of("realm", "simple")),
                        new AuthChallenge("Bearer", Map.of()));
    }

    @Test
    void token68AndSloppySpacing() {
        assertThat(parse("Negotiate abc+/d==", " basic   realm = x ,,  Digest realm=\"d\",qop=\"auth\""))
                .containsExactly(
                        new AuthChallenge("Negotiate", Map.of("", "abc+/d==")),
                        new AuthChallenge("basic", Map.of("realm", "x")),
                        new AuthChallenge("Digest", Map.of("realm", "d", "qop", "auth")));
        assertThat(parse("Basic realm=\"unterminated")).containsExactly(
                new AuthChallenge("Basic", Map.of("realm", "unterminated")));
        assertThat(parse("", " , ")).isEmpty();
        assertThat(new AuthChallenge("BASIC", Map.of()).is("Basic")).isTrue();
    }
}
