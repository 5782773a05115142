// A Vabanque bot that plays uniformly at random among the legal actions (JDK 17, standard
// library only).
//
// It is the smallest complete bot: copy it and replace `choose` with your own strategy.
// The referee talks to the bot in JSON Lines: one JSON object per line on standard input, and
// the bot answers with one JSON object per line on standard output. Standard output carries
// protocol lines only: print any log to standard error (System.err).
//
// Java has no JSON in its standard library, so the class Json at the end of this file reads
// and writes it (a reader of 150 lines, a writer of 60: no need to read them to write a bot).
//
// `referee new-bot --lang java` writes this file as Bot.java. Build and run it in its directory:
//   javac -d build Bot.java
//   referee match --game vabanque --bot "a=java -cp build Bot" ...

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

final class Bot {
    static final String NAME = "java-random";

    // UTF-8 both ways, whatever the locale (the referee gives the bot a short environment).
    static final BufferedReader IN =
            new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    static final BufferedWriter OUT =
            new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8));

    /** Writes one message as one line and flushes at once: the referee waits for the line. */
    static void send(Map<String, Object> message) throws IOException {
        OUT.write(Json.write(message));
        OUT.write('\n');
        OUT.flush(); // without it the line stays in the buffer and the bot times out
    }

    /** Picks the action to play. `request.get("view")` holds everything the seat may know
     *  (tokens, chips, cards, money...); this bot ignores it and draws among `legal`. */
    static Object choose(Random rng, Map<?, ?> request) {
        List<?> legal = (List<?>) request.get("legal");
        return legal.get(rng.nextInt(legal.size()));
    }

    public static void main(String[] args) throws IOException {
        Random rng = new Random(0); // replaced at every match_start: the bot is deterministic
        String line;
        while ((line = IN.readLine()) != null) { // one message per line; null at EOF
            if (line.isBlank()) {
                continue;
            }
            Map<?, ?> message = (Map<?, ?>) Json.parse(line);
            Object kind = message.get("type");
            if ("hello".equals(kind)) { // the first message: say who we are and our protocol
                send(Json.object("type", "hello", "name", NAME, "protocol", 1));
            } else if ("match_start".equals(kind)) { // a new match: seed our random choices
                rng = new Random(((Number) message.get("seed")).longValue());
            } else if ("request".equals(kind)) { // our turn: answer, echoing the request's id
                Object action = choose(rng, message);
                send(Json.object("type", "action", "id", message.get("id"), "action", action));
            } else if ("goodbye".equals(kind)) { // no more matches
                break;
            }
            // Anything else (event, error, match_end, or a type added later) is ignored.
        }
    }

    /**
     * A small JSON reader and writer. `parse` turns one line into Map (keys in their order),
     * List, String, Long, BigInteger (integers beyond a long: the seed is an unsigned 64-bit
     * number, and BigInteger.longValue() keeps all its 64 bits), Double, Boolean or null;
     * `write` turns those back into text.
     */
    static final class Json {
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
}
