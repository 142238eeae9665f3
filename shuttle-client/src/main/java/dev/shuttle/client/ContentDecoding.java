package dev.shuttle.client;

import dev.shuttle.client.compress.ContentCoding;
import dev.shuttle.client.compress.DecodingBody;
import dev.shuttle.client.exchange.ClientFields;
import dev.shuttle.client.exchange.ResponseBody;
import dev.shuttle.client.exchange.ResponseStart;
import dev.shuttle.client.internal.ClientSettings;
import dev.shuttle.wire.Headers;
import java.io.IOException;

/**
 * Transparent decompression, in the call's chain below redirects and authentication: a response to a request for
 * which the client asked for compression ({@link ClientFields#requestsCompression}) comes back decoded, without its
 * {@code Content-Encoding} and {@code Content-Length}, as Go does. Network interceptors, below, see it as it came.
 */
final class ContentDecoding implements Interceptor {
    private final ClientSettings settings;

    ContentDecoding(ClientSettings settings) {
        this.settings = settings;
    }

    @Override
    public Response intercept(Chain chain) throws IOException {
        Request request = chain.request();
        Response response = chain.proceed(request);
        if (!ClientFields.requestsCompression(settings, request)) {
            return response;
        }
        ContentCoding coding = ContentCoding.of(response.header("Content-Encoding"));
        if (coding == null || response.bodyIsEmpty()) {
            return response;
        }
        Headers headers = response.headers().toBuilder().remove("Content-Encoding").remove("Content-Length").build();
        ResponseStart head = new ResponseStart(response.status(), response.reason(), response.version(), headers,
                response.streamId());
        ResponseBody decoded = new ResponseBody(new DecodingBody(response.rawBody(), coding, settings.limits()));
        return new Response(response.request(), head, decoded, response.connection(), response.settle(),
                coding.token());
    }

    @Override
    public String toString() {
        return "decompression";
    }
}
