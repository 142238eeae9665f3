package dev.shuttle.client;

import dev.shuttle.client.auth.AuthInterceptor;
import dev.shuttle.client.cookie.CookieInterceptor;
import dev.shuttle.client.internal.ClientSettings;
import dev.shuttle.client.redirect.RedirectInterceptor;
import java.util.ArrayList;
import java.util.List;

/**
 * The interceptors every call runs, in order: the application's, then the client's own for each feature that is on.
 * A feature that is off is not in the list, so it costs a call nothing.
 */
final class CallInterceptors {
    private CallInterceptors() {
    }

    static List<Interceptor> of(ClientSettings settings) {
        List<Interceptor> chain = new ArrayList<>(settings.interceptors());
        if (settings.redirectPolicy().maxRedirects() > 0) {
            chain.add(new RedirectInterceptor(settings.redirectPolicy()));
        }
        if (settings.authenticator() != null || settings.proxyAuthenticator() != null) {
            chain.add(new AuthInterceptor(settings.authenticator(), settings.proxyAuthenticator()));
        }
        if (settings.cookieHandler() != null) {
            chain.add(new CookieInterceptor(settings.cookieHandler()));
        }
        if (settings.compression()) {
            chain.add(new ContentDecoding(settings));
        }
        return List.copyOf(chain);
    }
}
