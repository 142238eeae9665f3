package dev.shuttle.client;

import dev.shuttle.client.internal.Statuses;
import dev.shuttle.wire.Headers;
import dev.shuttle.wire.HttpVersion;

/**
 * A response whose body a {@link BodyHandler} has read: it holds no connection and needs no closing. What
 * {@link HttpClient#send(Request, BodyHandler)} and {@link HttpClient#sendAsync(Request, BodyHandler)} return.
 *
 * @param request    the request that was answered (after redirects: the last one sent)
 * @param status     the status code
 * @param version    the protocol that carried it
 * @param headers    the response's fields
 * @param trailers   trailer fields when the body was read to its end; empty otherwise
 * @param connection the connection it came over
 * @param body       what the handler made of the body
 * @param <T>        the body's type
 */
public record CompletedResponse<T>(Request request, int status, HttpVersion version, Headers headers,
                                   Headers trailers, ConnectionInfo connection, T body) {
    /** {@return whether the status is 2xx} */
    public boolean isSuccessful() {
        return Statuses.isSuccessful(status);
    }

    /**
     * Shortcut for {@code headers().first(name)}.
     *
     * @param name a field name, case-insensitive
     * @return the first value of that field, or null when absent
     */
    public String header(String name) {
        return headers.first(name);
    }

    static <T> CompletedResponse<T> of(Response response, T body) {
        Headers trailers = response.isComplete() ? response.trailers() : Headers.EMPTY;
        return new CompletedResponse<>(response.request(), response.status(), response.version(),
                response.headers(), trailers, response.connection(), body);
    }
}
