package dev.shuttle.client.auth;

import dev.shuttle.client.AuthChallenge;
import dev.shuttle.wire.FieldSyntax;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Parses {@code WWW-Authenticate} and {@code Proxy-Authenticate} values (RFC 9110 11.6.1 and 11.3): challenges
 * separated by commas, each a scheme followed by a token68 or by {@code name=value} parameters (values a token or a
 * quoted string), where a comma also separates parameters. Lenient as browsers are: a malformed part ends that
 * challenge, never the whole field.
 */
public final class ChallengeParser {
    private final String text;
    private int at;

    private ChallengeParser(String text) {
        this.text = text;
    }

    public static List<AuthChallenge> parse(List<String> fieldValues) {
        List<AuthChallenge> challenges = new ArrayList<>(1);
        for (String value : fieldValues) {
            new ChallengeParser(value).parseInto(challenges);
        }
        return challenges;
    }

    private void parseInto(List<AuthChallenge> out) {
        String scheme = null;
        Map<String, String> params = new LinkedHashMap<>();
        while (true) {
            skipSpaceAndCommas();
            if (at >= text.length()) {
                break;
            }
            String token = token();
            if (token.isEmpty()) {
                at++; // a stray character: skip it
                continue;
            }
            skipSpace();
            if (scheme != null && at < text.length() && text.charAt(at) == '=') {
                at++;
                skipSpace();
                params.put(token.toLowerCase(Locale.ROOT), value());
                continue;
            }
            if (scheme != null) {
                out.add(new AuthChallenge(scheme, params));
                params = new LinkedHashMap<>();
            }
            scheme = token;
            // A token68 (Negotiate abc==) stands alone up to the next comma; "realm=" followed by a value does not.
            int mark = at;
            String token68 = token68();
            if (!token68.isEmpty() && (at >= text.length() || text.charAt(at) == ',' || atSpaceThenComma())) {
                params.put("", token68);
            } else {
                at = mark;
            }
        }
        if (scheme != null) {
            out.add(new AuthChallenge(scheme, params));
        }
    }

    private boolean atSpaceThenComma() {
        int i = at;
        while (i < text.length() && (text.charAt(i) == ' ' || text.charAt(i) == '\t')) {
            i++;
        }
        return i >= text.length() || text.charAt(i) == ',';
    }

    private String value() {
        if (at < text.length() && text.charAt(at) == '"') {
            StringBuilder quoted = new StringBuilder();
            at++;
            while (at < text.length()) {
                char c = text.charAt(at++);
                if (c == '"') {
                    return quoted.toString();
                }
                if (c == '\\' && at < text.length()) {
                    c = text.charAt(at++);
                }
                quoted.append(c);
            }
            return quoted.toString(); // unterminated: what there is
        }
        return token();
    }

    private String token() {
        int start = at;
        while (at < text.length() && isTokenChar(text.charAt(at))) {
            at++;
        }
        return text.substring(start, at);
    }

    private String token68() {
        int start = at;
        while (at < text.length() && (isTokenChar(text.charAt(at)) || text.charAt(at) == '/')) {
            at++;
        }
        while (at < text.length() && text.charAt(at) == '=') {
            at++;
        }
        return text.substring(start, at);
    }

    private void skipSpace() {
        while (at < text.length() && (text.charAt(at) == ' ' || text.charAt(at) == '\t')) {
            at++;
        }
    }

    private void skipSpaceAndCommas() {
        while (at < text.length() && (text.charAt(at) == ' ' || text.charAt(at) == '\t' || text.charAt(at) == ',')) {
            at++;
        }
    }

    private static boolean isTokenChar(char c) {
        return FieldSyntax.isTokenChar(c);
    }
}
