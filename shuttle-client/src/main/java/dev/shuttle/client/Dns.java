package dev.shuttle.client;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;

/**
 * Resolves host names to addresses for new connections, as OkHttp's {@code Dns}: the client tries the addresses in
 * the order given, the other address family {@link HttpClient.Builder#dns 300 ms} behind the first (RFC 8305). Not
 * asked for IP address literals. Called on the dialing thread; may block; must be thread-safe.
 */
@FunctionalInterface
public interface Dns {
    /** The JDK's resolver ({@link InetAddress#getAllByName}), with its cache and the system's configuration. */
    Dns SYSTEM = host -> List.of(InetAddress.getAllByName(host));

    /**
     * Resolves {@code host} for a new connection, on the requesting thread; it may block.
     *
     * @param host a host name (never an address literal: those are not looked up)
     * @return the addresses of {@code host}, in the order to try them; never empty
     * @throws UnknownHostException when it has none
     */
    List<InetAddress> lookup(String host) throws UnknownHostException;
}
