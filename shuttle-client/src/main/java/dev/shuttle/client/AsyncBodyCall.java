package dev.shuttle.client;

import java.io.IOException;
import java.io.InterruptedIOException;

/**
 * {@link HttpClient#send(Request, BodyHandler)} for {@link HttpClient#sendAsync(Request, BodyHandler)}. Cancelled
 * while the handler reads, it cancels the body rather than interrupting the reading thread: an interrupt would close
 * the socket under a blocked read, where a cancelled body goes to the drain policy.
 */
final class AsyncBodyCall<T> implements ClientCore.AsyncCall<CompletedResponse<T>> {
    private final HttpClient client;
    private final Request request;
    private final BodyHandler<T> handler;
    /** The response whose body the handler reads; set by the call's thread, read by the cancelling one. */
    private volatile Response reading;

    AsyncBodyCall(HttpClient client, Request request, BodyHandler<T> handler) {
        this.client = client;
        this.request = request;
        this.handler = handler;
    }

    @Override
    public CompletedResponse<T> call() throws IOException {
        try (Response response = client.send(request)) {
            reading = response;
            T body = handler.read(response);
            return CompletedResponse.of(response, body);
        }
    }

    @Override
    public void cancel(Thread thread) {
        Response response = reading;
        if (response != null) {
            response.cancel(new InterruptedIOException("call cancelled: " + request));
        } else {
            thread.interrupt(); // a read that starts interrupted hands the connection to the drain policy too
        }
    }
}
