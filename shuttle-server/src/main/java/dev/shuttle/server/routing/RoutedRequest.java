package dev.shuttle.server.routing;

import dev.shuttle.server.ForwardingRequest;
import dev.shuttle.server.Request;
import java.util.List;

/** A request as the route's handler sees it: with the values of its pattern's wildcards. */
final class RoutedRequest extends ForwardingRequest {
    private final List<String> names;
    private final String[] values;

    RoutedRequest(Request request, List<String> names, String[] values) {
        super(request);
        this.names = names;
        this.values = values;
    }

    /** This pattern's wildcard, else one an enclosing router matched. */
    @Override
    public String pathValue(String name) {
        for (int i = 0; i < values.length; i++) {
            if (names.get(i).equals(name)) {
                return values[i];
            }
        }
        return super.pathValue(name);
    }
}
