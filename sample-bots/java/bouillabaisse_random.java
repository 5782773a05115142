// A La Bouillabaisse bot that plays uniformly at random among the legal cards (JDK 17,
// standard library only).
//
// It is the smallest complete bot: copy it and replace `choose` with your own strategy.
// The referee talks to the bot in JSON Lines: one JSON object per line on standard input, and
// the bot answers with one JSON object per line on standard output. Standard output carries
// protocol lines only: print any log to standard error (System.err).
//
// Java has no JSON in its standard library: the class Json, in Json.java beside this file,
// reads and writes it (Json.parse, Json.object, Json.write; no need to read it to write a bot).
//
// `referee new-bot --lang java` writes this file as Bot.java, with Json.java. Build and run it in
// its directory:
//   javac -d build Bot.java Json.java
//   referee match --game bouillabaisse --bot "a=java -cp build Bot" ...

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
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

    /** Picks the card to play. `request.get("view")` holds everything the seat may know
     *  (hand, trick so far, chosen cards, scores...); this bot ignores it and draws among
     *  `legal`, which lists every legal card as an action such as {"card": "QS"}. */
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
}
