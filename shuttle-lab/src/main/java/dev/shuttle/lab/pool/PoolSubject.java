package dev.shuttle.lab.pool;

import dev.shuttle.lab.clients.ClientKind;
import dev.shuttle.lab.clients.ClientOptions;
import dev.shuttle.lab.clients.LabClient;
import java.util.ArrayList;
import java.util.List;

/**
 * One row of {@code lab pool}: a client with its default pool, or Shuttle configured with Go's DefaultTransport
 * idle limit (2 per host), the configuration seed 003 measured.
 */
public record PoolSubject(ClientKind kind, boolean goIdleDefaults) {

    public String name() {
        return goIdleDefaults ? kind.cliName() + " (Go idle: 2/host)" : kind.cliName();
    }

    public String description() {
        return goIdleDefaults ? kind.label() + " with maxIdlePerHost 2, Go's DefaultTransport default"
                : kind.label() + ", default pool";
    }

    public LabClient create() {
        return kind.create(ClientOptions.builder().goIdleDefaults(goIdleDefaults).build());
    }

    /** Each client with its defaults, plus Shuttle with Go's idle limit right after Shuttle's default. */
    public static List<PoolSubject> forClients(List<ClientKind> clients) {
        List<PoolSubject> subjects = new ArrayList<>();
        for (ClientKind kind : clients) {
            subjects.add(new PoolSubject(kind, false));
            if (kind == ClientKind.SHUTTLE) {
                subjects.add(new PoolSubject(kind, true));
            }
        }
        return subjects;
    }
}
