package dev.shuttle.server.compress;

import dev.shuttle.server.Response;

/** Adds {@code Accept-Encoding} to a response's {@code Vary}, once, keeping what is there. Stateless. */
final class Vary {
    private Vary() {
    }

    static void addAcceptEncoding(Response response) {
        if (response.isCommitted()) {
            return;
        }
        String vary = response.headers().first("Vary");
        if (vary == null || vary.isBlank()) {
            response.header("Vary", "Accept-Encoding");
            return;
        }
        for (String token : vary.split(",")) {
            String name = token.strip();
            if (name.equals("*") || name.equalsIgnoreCase("Accept-Encoding")) {
                return;
            }
        }
        response.header("Vary", vary + ", Accept-Encoding");
    }
}
