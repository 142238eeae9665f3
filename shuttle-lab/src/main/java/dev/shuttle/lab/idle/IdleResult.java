package dev.shuttle.lab.idle;

import dev.shuttle.lab.report.RunEnvironment;
import dev.shuttle.lab.servers.ServerKind;
import java.util.List;
import java.util.Map;

/**
 * Everything one {@code lab idle} run measured.
 *
 * @param measured servers that ran, in order
 * @param skipped  servers that cannot serve the protocol, with the one-line reason
 * @param versions each measured server's version as found on the class path
 */
public record IdleResult(IdleSettings settings, RunEnvironment environment, List<ServerKind> measured,
                         Map<ServerKind, String> skipped, Map<ServerKind, String> versions, List<IdleCell> cells,
                         long elapsedNanos) {
    public IdleCell cell(ServerKind server, int connections) {
        for (IdleCell c : cells) {
            if (c.server() == server && c.connections() == connections) {
                return c;
            }
        }
        return null;
    }
}
