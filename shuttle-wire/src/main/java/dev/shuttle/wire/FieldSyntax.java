package dev.shuttle.wire;

/** RFC 9110 grammar checks for field names (tokens) and field values. */
public final class FieldSyntax {
    private static final boolean[] TCHAR = new boolean[128];

    static {
        for (char c = '0'; c <= '9'; c++) {
            TCHAR[c] = true;
        }
        for (char c = 'a'; c <= 'z'; c++) {
            TCHAR[c] = true;
            TCHAR[c - 'a' + 'A'] = true;
        }
        for (char c : "!#$%&'*+-.^_`|~".toCharArray()) {
            TCHAR[c] = true;
        }
    }

    private FieldSyntax() {
    }

    /**
     * {@return true for RFC 9110 tchar: the characters allowed in tokens such as methods and field names}
     *
     * @param c a character or byte value
     */
    public static boolean isTokenChar(int c) {
        return c >= 0 && c < 128 && TCHAR[c];
    }

    /**
     * {@return whether {@code text} is a non-empty RFC 9110 token}
     *
     * @param text the text to check
     */
    public static boolean isToken(CharSequence text) {
        if (text.isEmpty()) {
            return false;
        }
        for (int i = 0; i < text.length(); i++) {
            if (!isTokenChar(text.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    /**
     * {@return true for a byte allowed inside a field value: VCHAR, obs-text, SP and HTAB; never CR, LF or NUL}
     *
     * @param c a byte value, 0 to 255
     */
    public static boolean isFieldValueChar(int c) {
        return c == '\t' || (c >= 0x20 && c != 0x7f && c <= 0xff);
    }

    /**
     * Checks a field name.
     *
     * @param name the field name
     * @throws IllegalArgumentException when it is not a token
     */
    public static void requireValidName(String name) {
        if (name == null || !isToken(name)) {
            throw new IllegalArgumentException("invalid header name: " + quote(name));
        }
    }

    /**
     * Checks a field value.
     *
     * @param name the field's name, for the message
     * @param value the field value
     * @throws IllegalArgumentException when it holds CR, LF, NUL or another byte a field value may not
     */
    public static void requireValidValue(String name, String value) {
        if (value == null) {
            throw new IllegalArgumentException("null value for header " + name);
        }
        for (int i = 0; i < value.length(); i++) {
            if (!isFieldValueChar(value.charAt(i))) {
                throw new IllegalArgumentException("invalid character 0x" + Integer.toHexString(value.charAt(i))
                        + " in value of header " + name);
            }
        }
    }

    private static String quote(String text) {
        return text == null ? "null" : '"' + text + '"';
    }
}
