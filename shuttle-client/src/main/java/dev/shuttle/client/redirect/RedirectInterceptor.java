package dev.shuttle.client.redirect;

import dev.shuttle.client.Interceptor;
import dev.shuttle.client.RedirectPolicy;
import dev.shuttle.client.Request;
import dev.shuttle.client.Response;
import dev.shuttle.client.intercept.CallChain;
import java.io.IOException;
import java.net.ProtocolException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Follows redirects within a call, by {@link RedirectRules} and the client's {@link RedirectPolicy}. Each 3xx it
 * follows is closed before the next hop goes out, so its body goes through the drain policy and the next hop finds
 * the connection idle (or waits for its drain by the hand-off rule): a chain of small redirects costs no connection.
 */
public final class RedirectInterceptor implements Interceptor {
    private final RedirectPolicy policy;

    public RedirectInterceptor(RedirectPolicy policy) {
        this.policy = policy;
    }

    @Override
    public Response intercept(Chain chain) throws IOException {
        Request request = chain.request();
        List<Request> via = null;
        while (true) {
            Response response = chain.proceed(request);
            Request next;
            try {
                next = RedirectRules.next(request, response.status(), response.headers(), policy);
                if (next == null) {
                    return response;
                }
                if (via == null) {
                    via = new ArrayList<>(2);
                }
                via.add(request);
                if (via.size() > policy.maxRedirects()) {
                    throw new ProtocolException("stopped after " + policy.maxRedirects() + " redirects (the next to "
                            + next.uri() + ")");
                }
                if (policy.check() != null && !policy.check().follow(next, Collections.unmodifiableList(via))) {
                    return response;
                }
            } catch (IOException | RuntimeException e) {
                response.close();
                throw e;
            }
            response.close(); // through the drain policy: the next hop may take the same connection
            CallChain.traceOf(chain).followUp(response.status(), next);
            request = next;
        }
    }

    @Override
    public String toString() {
        return "redirects (at most " + policy.maxRedirects() + ")";
    }
}
