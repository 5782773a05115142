// A Machiavelli bot that lays the sets and runs it can form from its own hand, else draws
// (JDK 17, standard library only).
//
// It is the smallest complete bot: copy it and replace `choose` with your own strategy.
// Machiavelli lists no legal actions: a play is the whole new table, which the bot builds
// itself. This one keeps the table's melds as they are and adds melds made of its own cards,
// in a random order (a stronger bot rearranges the table:
// sample-bots/python/machiavelli_rearranger.py).
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
//   referee match --game machiavelli --bot "a=java -cp build Bot" ...

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

final class Bot {
    static final String NAME = "java-random";
    static final List<String> RANKS =
            List.of("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"); // 1 to 13
    static final List<String> SUITS = List.of("C", "D", "H", "S");
    static final String JOKER = "JK";

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

    /** The rank of a card such as "10S": 1 (the ace) to 13 (the king). */
    static int rank(String card) {
        return RANKS.indexOf(card.substring(0, card.length() - 1)) + 1;
    }

    /** The suit of a card such as "10S": its last letter. */
    static char suit(String card) {
        return card.charAt(card.length() - 1);
    }

    /** Whether `cards` is a valid meld: a set (3 or 4 cards of one rank, all suits different)
     *  or a run (3 to 13 cards of one suit in consecutive ranks, the ace low as in A-2-3 or
     *  high as in Q-K-A, never both). A joker stands for any card: at most `maxJokers` in a
     *  meld, and never a meld of jokers only. */
    static boolean isMeld(List<String> cards, int maxJokers) {
        List<String> naturals = new ArrayList<>(cards);
        naturals.removeIf(JOKER::equals);
        int jokers = cards.size() - naturals.size();
        if (cards.size() < 3 || naturals.isEmpty() || jokers > maxJokers) {
            return false;
        }
        Set<Character> suits = new HashSet<>();
        Set<Integer> ranks = new HashSet<>();
        for (String c : naturals) {
            suits.add(suit(c));
            ranks.add(rank(c));
        }
        if (cards.size() <= 4 && ranks.size() == 1 && suits.size() == naturals.size()) {
            return true; // a set; its jokers stand for the missing suits
        }
        if (suits.size() != 1 || cards.size() > 13) {
            return false;
        }
        for (int ace : new int[] {1, 14}) { // the ace as the low end, then as the high end
            Set<Integer> values = new HashSet<>();
            for (String c : naturals) {
                values.add(rank(c) == 1 ? ace : rank(c));
            }
            // No rank twice, and the jokers can fill the gaps: the ranks span at most the size.
            if (values.size() == naturals.size()
                    && Collections.max(values) - Collections.min(values) < cards.size()) {
                return true;
            }
        }
        return false;
    }

    /** Melds made of cards of `hand`: each set of one rank, each longest run of one suit, then
     *  pairs that a joker makes a meld. They may share cards: `choose` lays what it can. */
    static List<List<String>> meldsIn(List<String> hand, int maxJokers) {
        List<List<String>> melds = new ArrayList<>();
        for (String r : RANKS) { // sets: one card of each suit that the hand holds in rank r
            List<String> sameRank = new ArrayList<>();
            for (String s : SUITS) {
                if (hand.contains(r + s)) {
                    sameRank.add(r + s);
                }
            }
            if (sameRank.size() >= 3) {
                melds.add(sameRank);
            }
        }
        List<String> ranksAndAce = new ArrayList<>(RANKS);
        ranksAndAce.add("A"); // the ace again after the king
        for (String s : SUITS) { // runs: consecutive ranks of suit s
            List<String> streak = new ArrayList<>();
            for (String r : ranksAndAce) {
                String card = r + s;
                if (hand.contains(card) && streak.size() < 13) { // A..K and A again: 14 cards
                    streak.add(card);
                } else { // the streak ends here
                    if (streak.size() >= 3) {
                        melds.add(streak);
                    }
                    streak = new ArrayList<>();
                    if (hand.contains(card)) {
                        streak.add(card);
                    }
                }
            }
            if (streak.size() >= 3) {
                melds.add(streak);
            }
        }
        if (hand.contains(JOKER) && maxJokers >= 1) { // a joker completes two cards into a meld
            List<String> naturals = new ArrayList<>(new TreeSet<>(hand)); // sorted, no repeats
            naturals.remove(JOKER);
            for (int i = 0; i < naturals.size(); i++) {
                for (int j = i + 1; j < naturals.size(); j++) {
                    List<String> meld = List.of(naturals.get(i), naturals.get(j), JOKER);
                    if (isMeld(meld, maxJokers)) {
                        melds.add(meld);
                    }
                }
            }
        }
        return melds;
    }

    /** Picks the action: {"play": the new table} or {"draw": true}. `view` holds everything
     *  the seat may know: its sorted `hand`, the `table` (a list of melds), the size of the
     *  stock and of every hand, the points so far. A play must hold every card of the table,
     *  at least one card from the hand, and nothing else, in valid melds. */
    static Map<String, Object> choose(Random rng, Map<?, ?> view, int maxJokers) {
        List<String> hand = new ArrayList<>();
        for (Object card : (List<?>) view.get("hand")) {
            hand.add((String) card);
        }
        List<List<String>> melds = meldsIn(hand, maxJokers);
        Collections.shuffle(melds, rng); // any order...
        // ...but melds without a joker first, to keep the jokers for later (sort is stable).
        melds.sort(Comparator.comparing(meld -> meld.contains(JOKER)));
        List<Object> laid = new ArrayList<>();
        for (List<String> meld : melds) {
            // Lay it if its cards are still in the hand (an earlier meld may have used them).
            boolean inHand = true;
            for (String c : meld) {
                inHand &= Collections.frequency(hand, c) >= Collections.frequency(meld, c);
            }
            if (inHand && isMeld(meld, maxJokers)) {
                for (String c : meld) {
                    hand.remove(c);
                }
                laid.add(meld);
            }
        }
        if (!laid.isEmpty()) {
            List<Object> table = new ArrayList<>((List<?>) view.get("table"));
            table.addAll(laid); // the table's melds as they were, plus ours
            return Json.object("play", table);
        }
        return Json.object("draw", true);
    }

    public static void main(String[] args) throws IOException {
        Random rng = new Random(0); // replaced at every match_start: the bot is deterministic
        int maxJokers = 1; // jokers allowed in one meld: the option jokers_per_meld, 1 unless set
        String line;
        while ((line = IN.readLine()) != null) { // one message per line; null at EOF
            if (line.isBlank()) {
                continue;
            }
            Map<?, ?> message = (Map<?, ?>) Json.parse(line);
            Object kind = message.get("type");
            if ("hello".equals(kind)) { // the first message: say who we are and our protocol
                send(Json.object("type", "hello", "name", NAME, "protocol", 1));
            } else if ("match_start".equals(kind)) { // a new match: seed, read the options
                rng = new Random(((Number) message.get("seed")).longValue());
                Map<?, ?> options = (Map<?, ?>) message.get("options");
                Object perMeld = options == null ? null : options.get("jokers_per_meld");
                maxJokers = perMeld == null ? 1 : ((Number) perMeld).intValue();
            } else if ("request".equals(kind)) { // our turn: answer, echoing the request's id
                Map<?, ?> view = (Map<?, ?>) message.get("view");
                Object action = choose(rng, view, maxJokers);
                send(Json.object("type", "action", "id", message.get("id"), "action", action));
            } else if ("goodbye".equals(kind)) { // no more matches
                break;
            }
            // Anything else (event, error, match_end, or a type added later) is ignored.
        }
    }
}
