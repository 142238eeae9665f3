package dev.shuttle.client.auth;

import dev.shuttle.client.AuthChallenge;
import dev.shuttle.client.Authenticator;
import dev.shuttle.client.Request;
import dev.shuttle.client.Response;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Objects;

/** {@link Authenticator#basic}: RFC 7617's scheme, refused credentials given up after one try. */
public final class BasicAuthenticator implements Authenticator {
    private final String user;
    private final String password;

    public BasicAuthenticator(String user, String password) {
        this.user = Objects.requireNonNull(user, "user");
        this.password = Objects.requireNonNull(password, "password");
        if (user.indexOf(':') >= 0) {
            throw new IllegalArgumentException("a Basic user name cannot hold ':' (RFC 7617 2)");
        }
    }

    /** {@code Basic base64(user:password)} in {@code charset}. */
    public static String credentials(String user, String password, Charset charset) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(charset));
    }

    @Override
    public Request authenticate(Request request, Response challenge) {
        for (AuthChallenge offer : challenge.challenges()) {
            if (!offer.is("Basic")) {
                continue;
            }
            Charset charset = "utf-8".equalsIgnoreCase(offer.parameters().get("charset")) ? StandardCharsets.UTF_8
                    : StandardCharsets.ISO_8859_1;
            String field = challenge.status() == 407 ? "Proxy-Authorization" : "Authorization";
            String value = credentials(user, password, charset);
            if (value.equals(request.headers().first(field))) {
                return null; // these very credentials were refused
            }
            return request.toBuilder().header(field, value).build();
        }
        return null;
    }

    @Override
    public String toString() {
        return "Basic " + user;
    }
}
