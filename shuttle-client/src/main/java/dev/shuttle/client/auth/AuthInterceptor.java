package dev.shuttle.client.auth;

import dev.shuttle.client.Authenticator;
import dev.shuttle.client.Interceptor;
import dev.shuttle.client.Request;
import dev.shuttle.client.Response;
import dev.shuttle.client.intercept.CallChain;
import java.io.IOException;
import java.net.ProtocolException;

/**
 * Answers 401 and 407 challenges within a call, below redirects (so each hop is answered for its own origin, and
 * what an authenticator adds never travels with a redirect). A 401 is put to the authenticator only when it comes
 * from the origin the call was made to; a 407 (a proxy's, for plain http through it) to the proxy authenticator. The
 * challenge is closed, through the drain policy, before the answer goes out.
 */
public final class AuthInterceptor implements Interceptor {
    /**
     * Rounds of one hop answered at most: Basic needs one, multi-leg schemes (NTLM, Negotiate) two or three. More is
     * an authenticator and a server that disagree for ever.
     */
    static final int MAX_ROUNDS = 4;

    private final Authenticator server;
    private final Authenticator proxy;

    /** Either may be null: that kind of challenge is returned to the caller. */
    public AuthInterceptor(Authenticator server, Authenticator proxy) {
        this.server = server;
        this.proxy = proxy;
    }

    @Override
    public Response intercept(Chain chain) throws IOException {
        Request request = chain.request();
        for (int round = 0; ; round++) {
            Response response = chain.proceed(request);
            Authenticator authenticator = switch (response.status()) {
                case 401 -> server != null && isCallOrigin(chain, request) ? server : null;
                case 407 -> proxy;
                default -> null;
            };
            if (authenticator == null) {
                return response;
            }
            Request answer;
            try {
                answer = authenticator.authenticate(request, response);
                if (answer != null && !answer.origin().equals(request.origin())) {
                    throw new IllegalStateException("an authenticator must answer for the challenged origin "
                            + request.origin() + ", not " + answer.uri());
                }
                if (answer != null && round + 1 >= MAX_ROUNDS) {
                    throw new ProtocolException("gave up after " + MAX_ROUNDS + " rounds of " + response.status()
                            + " challenges from " + request.origin());
                }
            } catch (IOException | RuntimeException e) {
                response.close();
                throw e;
            }
            if (answer == null) {
                return response;
            }
            response.close();
            CallChain.traceOf(chain).followUp(response.status(), answer);
            request = answer;
        }
    }

    private static boolean isCallOrigin(Chain chain, Request request) {
        return !(chain instanceof CallChain call) || call.callRequest().origin().equals(request.origin());
    }

    @Override
    public String toString() {
        return "authentication";
    }
}
