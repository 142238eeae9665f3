package dev.shuttle.client;

import dev.shuttle.client.auth.BasicAuthenticator;
import java.io.IOException;

/**
 * Answers an authentication challenge within a call, as OkHttp's {@code Authenticator} does: a 401 from the server
 * ({@link HttpClient.Builder#authenticator}) or a 407 from a proxy ({@link HttpClient.Builder#proxyAuthenticator}).
 * Runs on the calling thread; returns the request to send again with credentials, or null to give the challenge to
 * the caller.
 *
 * <p>Credentials go only where they were asked for: a 401 is put to the authenticator only when it comes from the
 * origin the call was made to, never from one a redirect led to (curl's rule), and what the authenticator adds lives
 * on that one request, which redirects never carry to another origin. An authenticator that keeps answering is
 * stopped after a few rounds.
 */
@FunctionalInterface
public interface Authenticator {
    /**
     * Answers a challenge: called with the 401 or 407 response, on the calling thread, before the call goes on.
     *
     * @param request   the request that was challenged, as the call had it (before network interceptors)
     * @param challenge the 401 or 407, open; its {@link Response#challenges()} say what it asks for. Do not close it:
     *                  the client does, or returns it when this returns null
     * @return {@code request} with credentials ({@code Authorization} for a 401, {@code Proxy-Authorization} for a
     *         407), or null to give up
     * @throws IOException when answering needs I/O that failed (a token endpoint, say); the call fails with it
     */
    Request authenticate(Request request, Response challenge) throws IOException;

    /**
     * Answers {@code Basic} challenges (RFC 7617) with {@code user} and {@code password}, in UTF-8 when the challenge
     * says {@code charset="UTF-8"}, else ISO-8859-1. Gives up when the challenged request already carried exactly
     * these credentials (they were refused), so a wrong password costs one round trip, not a loop.
     *
     * @param user the user name, sent as given
     * @param password the password, sent as given
     * @return an authenticator answering Basic challenges only, and giving up on others
     */
    static Authenticator basic(String user, String password) {
        return new BasicAuthenticator(user, password);
    }
}
