package dev.shuttle.wire;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * An immutable list of header fields: names compare case-insensitively, order and repeated names are kept as they
 * arrived (RFC 9110 section 5.3). Lookups are linear: heads have tens of fields, where a scan beats hashing.
 */
public final class Headers {
    /** No fields. */
    public static final Headers EMPTY = new Headers(new String[0]);

    /** name0, value0, name1, value1, ... */
    private final String[] namesAndValues;

    private Headers(String[] namesAndValues) {
        this.namesAndValues = namesAndValues;
    }

    /**
     * Builds from alternating names and values: {@code Headers.of("Host", "a", "Accept", "*&#47;*")}.
     *
     * @param namesAndValues names and values, alternating
     * @return the headers
     */
    public static Headers of(String... namesAndValues) {
        if (namesAndValues.length % 2 != 0) {
            throw new IllegalArgumentException("expected name/value pairs, got " + namesAndValues.length + " strings");
        }
        Builder builder = builder();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            builder.add(namesAndValues[i], namesAndValues[i + 1]);
        }
        return builder.build();
    }

    /** {@return an empty builder} */
    public static Builder builder() {
        return new Builder();
    }

    /** {@return the number of fields (field lines), repeated names counted each time} */
    public int size() {
        return namesAndValues.length / 2;
    }

    /** {@return whether there are no fields} */
    public boolean isEmpty() {
        return namesAndValues.length == 0;
    }

    /**
     * {@return the name of field {@code index}, as sent}
     *
     * @param index from 0 to {@link #size()} - 1
     */
    public String name(int index) {
        Objects.checkIndex(index, size());
        return namesAndValues[2 * index];
    }

    /**
     * {@return the value of field {@code index}}
     *
     * @param index from 0 to {@link #size()} - 1
     */
    public String value(int index) {
        Objects.checkIndex(index, size());
        return namesAndValues[2 * index + 1];
    }

    /**
     * {@return the first value of {@code name}, or null}
     *
     * @param name a field name, case-insensitive
     */
    public String first(String name) {
        for (int i = 0; i < namesAndValues.length; i += 2) {
            if (namesAndValues[i].equalsIgnoreCase(name)) {
                return namesAndValues[i + 1];
            }
        }
        return null;
    }

    /**
     * Every value of {@code name}, in order.
     *
     * @param name a field name, case-insensitive
     * @return the values, possibly empty
     */
    public List<String> all(String name) {
        List<String> values = null;
        for (int i = 0; i < namesAndValues.length; i += 2) {
            if (namesAndValues[i].equalsIgnoreCase(name)) {
                if (values == null) {
                    values = new ArrayList<>(2);
                }
                values.add(namesAndValues[i + 1]);
            }
        }
        return values == null ? List.of() : Collections.unmodifiableList(values);
    }

    /**
     * {@return how many fields are named {@code name}}
     *
     * @param name a field name, case-insensitive
     */
    public int count(String name) {
        int count = 0;
        for (int i = 0; i < namesAndValues.length; i += 2) {
            if (namesAndValues[i].equalsIgnoreCase(name)) {
                count++;
            }
        }
        return count;
    }

    /**
     * {@return whether a field named {@code name} is present}
     *
     * @param name a field name, case-insensitive
     */
    public boolean contains(String name) {
        return first(name) != null;
    }

    /**
     * True when a comma-separated list header (e.g. {@code Connection}, {@code Transfer-Encoding}) carries
     * {@code token}, compared case-insensitively, across all its field lines.
     *
     * @param name a field name, case-insensitive
     * @param token the token sought
     * @return whether a field of that name lists {@code token}
     */
    public boolean containsToken(String name, String token) {
        for (int i = 0; i < namesAndValues.length; i += 2) {
            if (!namesAndValues[i].equalsIgnoreCase(name)) {
                continue;
            }
            for (String element : namesAndValues[i + 1].split(",")) {
                if (element.trim().equalsIgnoreCase(token)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** {@return a builder holding these fields, to make a changed copy} */
    public Builder toBuilder() {
        return new Builder(namesAndValues);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Headers that && Arrays.equals(namesAndValues, that.namesAndValues);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(namesAndValues);
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            text.append(namesAndValues[i]).append(": ").append(namesAndValues[i + 1]).append('\n');
        }
        return text.toString();
    }

    /** Collects fields in order. Not thread-safe. */
    public static final class Builder {
        /** name0, value0, ... in the first {@link #count} slots: an array, not a list, one object less per head. */
        private String[] namesAndValues;
        private int count;
        /** Headers hold {@link #namesAndValues} itself: copy it before changing it. */
        private boolean shared;

        private Builder() {
            this.namesAndValues = new String[8];
        }

        /** A builder starting with the fields of existing headers, whose array it shares until it changes. */
        private Builder(String[] namesAndValues) {
            this.namesAndValues = namesAndValues;
            this.count = namesAndValues.length;
            this.shared = true;
        }

        /**
         * Appends a field; names and values are checked against RFC 9110's token and field-value grammar.
         *
         * @param name the field name
         * @param value the field value
         * @return this builder
         */
        public Builder add(String name, String value) {
            FieldSyntax.requireValidName(name);
            FieldSyntax.requireValidValue(name, value);
            if (count == namesAndValues.length) { // full, or shared (which only a full array can be)
                namesAndValues = Arrays.copyOf(namesAndValues, Math.max(8, count * 2));
                shared = false;
            }
            namesAndValues[count++] = name;
            namesAndValues[count++] = value;
            return this;
        }

        /**
         * Removes every field named {@code name}, then adds it once.
         *
         * @param name the field name
         * @param value the field value
         * @return this builder
         */
        public Builder set(String name, String value) {
            remove(name);
            return add(name, value);
        }

        /**
         * Removes every field named {@code name}.
         *
         * @param name the field name, case-insensitive
         * @return this builder
         */
        public Builder remove(String name) {
            if (shared) {
                namesAndValues = namesAndValues.clone();
                shared = false;
            }
            int kept = 0;
            for (int i = 0; i < count; i += 2) {
                if (!namesAndValues[i].equalsIgnoreCase(name)) {
                    namesAndValues[kept++] = namesAndValues[i];
                    namesAndValues[kept++] = namesAndValues[i + 1];
                }
            }
            Arrays.fill(namesAndValues, kept, count, null);
            count = kept;
            return this;
        }

        /** {@return the number of fields so far} */
        public int size() {
            return count / 2;
        }

        /** {@return the headers} */
        public Headers build() {
            if (count == 0) {
                return EMPTY;
            }
            if (count < namesAndValues.length) {
                return new Headers(Arrays.copyOf(namesAndValues, count));
            }
            shared = true; // exactly full: the headers take the array, which this builder copies before changing it
            return new Headers(namesAndValues);
        }
    }
}
