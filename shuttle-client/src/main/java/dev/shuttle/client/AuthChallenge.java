package dev.shuttle.client;

import java.util.Map;

/**
 * One challenge of a {@code WWW-Authenticate} or {@code Proxy-Authenticate} field (RFC 9110 11.6.1), as
 * {@link Response#challenges()} parses it: {@code Basic realm="api", charset="UTF-8"} is the scheme {@code Basic} with
 * the parameters {@code realm} and {@code charset}.
 *
 * @param scheme     the auth scheme as sent ({@code Basic}, {@code Bearer}, {@code Digest}); compare ignoring case
 * @param parameters auth parameters by lower-case name, values unquoted; a token68 ({@code Negotiate abc==}) is under
 *                   the empty name
 */
public record AuthChallenge(String scheme, Map<String, String> parameters) {
    /** Copies {@code parameters}, so a challenge never changes after parsing. */
    public AuthChallenge {
        parameters = Map.copyOf(parameters);
    }

    /** {@return the {@code realm} parameter, or null} */
    public String realm() {
        return parameters.get("realm");
    }

    /**
     * {@return whether this is a challenge of {@code scheme}, which is case-insensitive}
     *
     * @param scheme an auth scheme such as {@code Basic} or {@code Bearer}
     */
    public boolean is(String scheme) {
        return this.scheme.equalsIgnoreCase(scheme);
    }
}
