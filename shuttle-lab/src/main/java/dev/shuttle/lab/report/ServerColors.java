package dev.shuttle.lab.report;

import dev.shuttle.lab.servers.ServerKind;

/** One colour per server, the same in every chart: greens for Shuttle, distinct hues for the peers. */
final class ServerColors {
    private ServerColors() {
    }

    static String of(ServerKind kind) {
        return switch (kind) {
            case SHUTTLE -> "#1b7837";
            case SHUTTLE_NOPARKING -> "#a6dba0";
            case JETTY -> "#f4a582";
            case NETTY -> "#2166ac";
            case HELIDON -> "#762a83";
            case UNDERTOW -> "#d6604d";
            case TOMCAT -> "#8c6d31";
        };
    }
}
