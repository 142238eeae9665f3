package dev.shuttle.server;

import dev.shuttle.server.core.PercentDecoder;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Name-value pairs of a query ({@code a=1&b=x%20y&a=2}) or of a form body, percent-decoded as UTF-8. Names keep the
 * order of their first appearance, values the order they were sent; a pair without {@code =} has the empty value, empty
 * pairs ({@code &&}) are skipped. {@link #parse} follows RFC 3986, where {@code +} is a plus sign;
 * {@link #parseForm} follows {@code application/x-www-form-urlencoded}, where it is a space (what an HTML form sends,
 * in a GET query or a POST body). A malformed escape ({@code %zz}) or bytes that are not UTF-8 are kept as sent, as
 * browsers do: a query parameter is data for the handler to judge, not a path the server resolves. Immutable.
 */
public final class QueryParameters {
    /** No parameters: the query of a request without one. */
    public static final QueryParameters EMPTY = new QueryParameters(Map.of());

    private final Map<String, List<String>> values;

    private QueryParameters(Map<String, List<String>> values) {
        this.values = values;
    }

    /**
     * Parses a raw query (without the {@code ?}), RFC 3986 decoding; null or empty gives {@link #EMPTY}.
     *
     * @param rawQuery the query as sent, without the {@code ?}; may be null
     * @return the parameters
     */
    public static QueryParameters parse(String rawQuery) {
        return parse(rawQuery, false);
    }

    /**
     * Parses {@code application/x-www-form-urlencoded} text: as {@link #parse}, but {@code +} is a space.
     *
     * @param encoded a form body or query as sent
     * @return the parameters
     */
    public static QueryParameters parseForm(String encoded) {
        return parse(encoded, true);
    }

    private static QueryParameters parse(String text, boolean plusIsSpace) {
        if (text == null || text.isEmpty()) {
            return EMPTY;
        }
        Map<String, List<String>> values = new LinkedHashMap<>();
        int start = 0;
        while (start <= text.length()) {
            int end = text.indexOf('&', start);
            if (end < 0) {
                end = text.length();
            }
            if (end > start) {
                int equals = text.indexOf('=', start);
                int nameEnd = equals < 0 || equals > end ? end : equals;
                String name = PercentDecoder.decode(text, start, nameEnd, plusIsSpace, false);
                String value = nameEnd == end ? "" : PercentDecoder.decode(text, nameEnd + 1, end, plusIsSpace, false);
                values.computeIfAbsent(name, n -> new ArrayList<>(1)).add(value);
            }
            start = end + 1;
        }
        values.replaceAll((name, list) -> List.copyOf(list));
        return new QueryParameters(Collections.unmodifiableMap(values));
    }

    /**
     * {@return the first value of {@code name}, or null when it is absent}
     *
     * @param name the decoded parameter name
     */
    public String first(String name) {
        List<String> all = values.get(name);
        return all == null ? null : all.getFirst();
    }

    /**
     * Every value of {@code name} in the order sent; empty when it is absent.
     *
     * @param name the decoded parameter name
     * @return the values, possibly empty
     */
    public List<String> all(String name) {
        return values.getOrDefault(name, List.of());
    }

    /**
     * {@return whether parameter {@code name} is present, with or without a value}
     *
     * @param name the decoded parameter name
     */
    public boolean contains(String name) {
        return values.containsKey(name);
    }

    /** {@return the names, in the order of their first appearance} */
    public Set<String> names() {
        return values.keySet();
    }

    /** {@return whether there are no parameters} */
    public boolean isEmpty() {
        return values.isEmpty();
    }

    /**
     * Every name with its values, in order; unmodifiable.
     *
     * @return the parameters by name
     */
    public Map<String, List<String>> toMap() {
        return values;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof QueryParameters that && values.equals(that.values);
    }

    @Override
    public int hashCode() {
        return values.hashCode();
    }

    @Override
    public String toString() {
        return values.toString();
    }
}
