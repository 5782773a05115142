// A small JSON reader and writer for the Java starter bots (JDK 17, standard library only).
//
// Java has no JSON in its standard library. `referee new-bot --lang java` writes this file
// beside Bot.java, and both are built together:
//   javac -d build Bot.java Json.java
// A bot needs only Json.parse (one line in), Json.object and Json.write (one line out): no need
// to read the rest to write a bot.

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small JSON reader and writer. `parse` turns one line into Map (keys in their order),
 * List, String, Long, BigInteger (integers beyond a long: the seed is an unsigned 64-bit
 * number, and BigInteger.longValue() keeps all its 64 bits), Double, Boolean or null;
 * `write` turns those back into text.
 */
final class Json {
    private final String text;
    private int pos;

    private Json(String text) {
        this.text = text;
    }

    /** Reads one JSON value that fills the whole of `text`. */
    static Object parse(String text) {
        Json reader = new Json(text);
        Object value = reader.value();
        reader.skipSpace();
        if (reader.pos != text.length()) {
            throw reader.error("unexpected text after the value");
        }
        return value;
    }

    /** A map of the given keys and values, in that order: object("type", "hello", ...). */
    static Map<String, Object> object(Object... keysAndValues) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }

    private Object value() {
        skipSpace();
        char c = pos < text.length() ? text.charAt(pos) : '\0';
        return switch (c) {
            case '{' -> object();
            case '[' -> array();
            case '"' -> string();
            case 't' -> literal("true", Boolean.TRUE);
            case 'f' -> literal("false", Boolean.FALSE);
            case 'n' -> literal("null", null);
            default -> number();
        };
    }

    private Map<String, Object> object() {
        Map<String, Object> map = new LinkedHashMap<>();
        expect('{');
        if (accept('}')) {
            return map;
        }
        do {
            skipSpace();
            String key = string();
            expect(':');
            map.put(key, value());
        } while (accept(','));
        expect('}');
        return map;
    }

    private List<Object> array() {
        List<Object> list = new ArrayList<>();
        expect('[');
        if (accept(']')) {
            return list;
        }
        do {
            list.add(value());
        } while (accept(','));
        expect(']');
        return list;
    }

    private String string() {
        expect('"');
        StringBuilder out = new StringBuilder();
        while (pos < text.length()) {
            char c = text.charAt(pos++);
            if (c == '"') {
                return out.toString();
            }
            if (c != '\\') {
                out.append(c);
                continue;
            }
            char escape = pos < text.length() ? text.charAt(pos++) : '\0';
            switch (escape) {
                case '"', '\\', '/' -> out.append(escape);
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case 'n' -> out.append('\n');
                case 'r' -> out.append('\r');
                case 't' -> out.append('\t');
                case 'u' -> { // four hex digits: one UTF-16 unit, as Java strings hold them
                    if (pos + 4 > text.length()) {
                        throw error("short \\u escape");
                    }
                    out.append((char) Integer.parseInt(text.substring(pos, pos + 4), 16));
                    pos += 4;
                }
                default -> throw error("bad escape \\" + escape);
            }
        }
        throw error("unterminated string");
    }

    private Object literal(String word, Object value) {
        if (!text.startsWith(word, pos)) {
            throw error("expected " + word);
        }
        pos += word.length();
        return value;
    }

    private Object number() {
        int start = pos;
        while (pos < text.length() && "+-0123456789.eE".indexOf(text.charAt(pos)) >= 0) {
            pos++;
        }
        String digits = text.substring(start, pos);
        if (digits.isEmpty()) {
            throw error("expected a value");
        }
        if (digits.contains(".") || digits.contains("e") || digits.contains("E")) {
            return Double.parseDouble(digits);
        }
        BigInteger integer = new BigInteger(digits);
        return integer.bitLength() < 64 ? (Object) integer.longValue() : integer;
    }

    private void skipSpace() {
        while (pos < text.length() && " \t\r\n".indexOf(text.charAt(pos)) >= 0) {
            pos++;
        }
    }

    /** Skips white space, then takes `c` if it comes next. */
    private boolean accept(char c) {
        skipSpace();
        if (pos < text.length() && text.charAt(pos) == c) {
            pos++;
            return true;
        }
        return false;
    }

    private void expect(char c) {
        if (!accept(c)) {
            throw error("expected '" + c + "'");
        }
    }

    private IllegalArgumentException error(String what) {
        String where = " at column " + pos + ": " + text;
        return new IllegalArgumentException("JSON: " + what + where);
    }

    /** The JSON text of a value made of the types that `parse` returns. */
    static String write(Object value) {
        StringBuilder out = new StringBuilder();
        write(out, value);
        return out.toString();
    }

    private static void write(StringBuilder out, Object value) {
        if (value instanceof String s) {
            writeString(out, s);
        } else if (value instanceof Map<?, ?> map) {
            out.append('{');
            String comma = "";
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                out.append(comma);
                writeString(out, (String) entry.getKey());
                out.append(':');
                write(out, entry.getValue());
                comma = ",";
            }
            out.append('}');
        } else if (value instanceof List<?> list) {
            out.append('[');
            String comma = "";
            for (Object item : list) {
                out.append(comma);
                write(out, item);
                comma = ",";
            }
            out.append(']');
        } else { // null, Boolean and numbers print as JSON does
            out.append(value);
        }
    }

    private static void writeString(StringBuilder out, String s) {
        out.append('"');
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) { // other control characters must be escaped too
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
