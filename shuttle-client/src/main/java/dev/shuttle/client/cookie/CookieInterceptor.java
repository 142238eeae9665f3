package dev.shuttle.client.cookie;

import dev.shuttle.client.Interceptor;
import dev.shuttle.client.Request;
import dev.shuttle.client.Response;
import dev.shuttle.wire.Headers;
import java.io.IOException;
import java.net.CookieHandler;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Cookies through the JDK's {@link CookieHandler} (a {@code java.net.CookieManager} works as it is), once per
 * exchange, redirect hops included: the handler's cookies for the request's URI join the request's {@code Cookie}
 * field (after the caller's own), and the response's {@code Set-Cookie} fields go to the handler. A handler that
 * throws fails the call, as it would fail the JDK's client.
 */
public final class CookieInterceptor implements Interceptor {
    private final CookieHandler handler;

    public CookieInterceptor(CookieHandler handler) {
        this.handler = handler;
    }

    @Override
    public Response intercept(Chain chain) throws IOException {
        Request request = chain.request();
        Map<String, List<String>> stored = handler.get(request.uri(), Map.of());
        String cookies = join(stored.get("Cookie"));
        Request sent = request;
        if (!cookies.isEmpty()) {
            String own = request.headers().first("Cookie");
            sent = request.toBuilder().header("Cookie", own == null ? cookies : own + "; " + cookies).build();
        }
        Response response = chain.proceed(sent);
        Headers headers = response.headers();
        if (headers.contains("Set-Cookie") || headers.contains("Set-Cookie2")) {
            try {
                handler.put(request.uri(), Map.of("Set-Cookie", headers.all("Set-Cookie"),
                        "Set-Cookie2", headers.all("Set-Cookie2")));
            } catch (IOException | RuntimeException e) {
                response.close();
                throw e;
            }
        }
        return response;
    }

    private static String join(List<String> values) {
        if (values == null || values.isEmpty()) {
            return "";
        }
        List<String> parts = new ArrayList<>(values.size());
        for (String value : values) {
            if (value != null && !value.isBlank()) {
                parts.add(value.trim());
            }
        }
        return String.join("; ", parts);
    }

    @Override
    public String toString() {
        return "cookies (" + handler + ")";
    }
}
