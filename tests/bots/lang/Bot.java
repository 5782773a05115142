// A Vabanque bot in Java (17, no library): answers every request with the first legal action.
// The tests run it with the source launcher (`java Bot.java`) under `referee check`, with and
// without the sandbox, to show that a JVM starts and plays under the referee's system-call
// filter.
//
// A JSON parser is more than it needs: it finds the fields of the top-level object ("type",
// "id", "legal") with a scanner that skips strings and nested values.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

public class Bot {
    /** The index of the closing quote of the JSON string opening at `i`. */
    static int stringEnd(String s, int i) {
        for (i++; i < s.length() && s.charAt(i) != '"'; i++) {
            if (s.charAt(i) == '\\') {
                i++;
            }
        }
        return i;
    }

    /** The JSON value starting at `i`. */
    static String value(String s, int i) {
        char c = s.charAt(i);
        int j = i;
        if (c != '"' && c != '{' && c != '[') {
            while (j < s.length() && ",}] \t\r\n".indexOf(s.charAt(j)) < 0) {
                j++;
            }
            return s.substring(i, j);
        }
        int depth = 0;
        do {
            char d = s.charAt(j);
            if (d == '"') {
                j = stringEnd(s, j);
            } else if (d == '{' || d == '[') {
                depth++;
            } else if (d == '}' || d == ']') {
                depth--;
            }
            j++;
        } while (j < s.length() && depth > 0);
        return s.substring(i, j);
    }

    /** The value of `key` in the top-level object `s`, or null. */
    static String field(String s, String key) {
        int depth = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"') {
                int end = stringEnd(s, i);
                if (depth == 1 && s.substring(i + 1, Math.min(end, s.length())).equals(key)) {
                    int j = end + 1;
                    while (j < s.length() && s.charAt(j) == ' ') {
                        j++;
                    }
                    if (j < s.length() && s.charAt(j) == ':') {
                        j++;
                        while (j < s.length() && s.charAt(j) == ' ') {
                            j++;
                        }
                        return j < s.length() ? value(s, j) : null;
                    }
                }
                i = end;
            } else if (c == '{' || c == '[') {
                depth++;
            } else if (c == '}' || c == ']') {
                depth--;
            }
        }
        return null;
    }

    public static void main(String[] args) throws Exception {
        BufferedReader in =
                new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            String type = field(line, "type");
            if ("\"hello\"".equals(type)) {
                System.out.println("{\"type\":\"hello\",\"name\":\"java-first\",\"protocol\":1}");
            } else if ("\"request\"".equals(type)) {
                String legal = field(line, "legal");
                String first = value(legal, 1);
                System.out.println(
                        "{\"type\":\"action\",\"id\":" + field(line, "id") + ",\"action\":" + first + "}");
            } else if ("\"goodbye\"".equals(type)) {
                break;
            }
            System.out.flush();
        }
    }
}
