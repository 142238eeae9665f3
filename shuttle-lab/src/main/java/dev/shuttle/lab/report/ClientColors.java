package dev.shuttle.lab.report;

import dev.shuttle.lab.clients.ClientKind;

/** One colour per client, the same in every chart: greens for Shuttle's policies, distinct hues for peers. */
final class ClientColors {
    private ClientColors() {
    }

    static String of(ClientKind kind) {
        return switch (kind) {
            case SHUTTLE -> "#1b7837";
            case SHUTTLE_BOUNDED -> "#5aae61";
            case SHUTTLE_NONE -> "#a6dba0";
            case SHUTTLE_H2 -> "#00441b";
            case JDK -> "#762a83";
            case OKHTTP -> "#2166ac";
            case APACHE -> "#d6604d";
            case JETTY -> "#f4a582";
        };
    }
}
