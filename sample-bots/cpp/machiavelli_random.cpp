// A Machiavelli bot that lays the sets and runs it can form from its own hand, else draws (C++17,
// with the JSON library nlohmann::json: Debian's package nlohmann-json3-dev).
//
// It is the smallest complete bot: copy it and replace `choose` with your own strategy.
// Machiavelli lists no legal actions: a play is the whole new table, which the bot builds
// itself. This one keeps the table's melds as they are and adds melds made of its own cards, in
// a random order (a stronger bot rearranges the table:
// sample-bots/python/machiavelli_rearranger.py).
// The referee talks to the bot in JSON Lines: one JSON object per line on standard input, and
// the bot answers with one JSON object per line on standard output. Standard output carries
// protocol lines only: print any log to standard error (std::cerr).
//
// `referee new-bot --lang cpp` writes this file as bot.cpp. Build and run it in its directory:
//   g++ -std=c++17 -O2 -Wall -o bot bot.cpp
//   referee match --game machiavelli --bot a=./bot ...

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iostream>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

// ordered_json writes the keys in the order they were set: easier to read in a log.
using json = nlohmann::ordered_json;
using Cards = std::vector<std::string>;  // cards such as "QH", "10S", "JK"

const char* const NAME = "cpp-random";
const Cards RANKS = {"A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"};  // 1 to 13
const Cards SUITS = {"C", "D", "H", "S"};
const std::string JOKER = "JK";

// Writes one message as one line and flushes at once: the referee waits for the line, and
// std::cout keeps what it is given in a buffer until it is flushed.
void send(const json& message) {
    std::cout << message.dump() << '\n' << std::flush;
}

// How many times `card` is in `cards`.
std::size_t count(const Cards& cards, const std::string& card) {
    return static_cast<std::size_t>(std::count(cards.begin(), cards.end(), card));
}

bool contains(const Cards& cards, const std::string& card) {
    return std::find(cards.begin(), cards.end(), card) != cards.end();
}

// The rank of a card such as "10S": 1 (the ace) to 13 (the king).
int rank(const std::string& card) {
    const std::string name = card.substr(0, card.size() - 1);
    return static_cast<int>(std::find(RANKS.begin(), RANKS.end(), name) - RANKS.begin()) + 1;
}

// The suit of a card such as "10S": its last letter.
char suit(const std::string& card) {
    return card.back();
}

// Whether `cards` is a valid meld: a set (3 or 4 cards of one rank, all suits different) or a
// run (3 to 13 cards of one suit in consecutive ranks, the ace low as in A-2-3 or high as in
// Q-K-A, never both). A joker stands for any card: at most `max_jokers` in a meld, and never a
// meld of jokers only.
bool is_meld(const Cards& cards, int max_jokers) {
    Cards naturals;
    for (const std::string& c : cards) {
        if (c != JOKER) {
            naturals.push_back(c);
        }
    }
    const int jokers = static_cast<int>(cards.size() - naturals.size());
    if (cards.size() < 3 || naturals.empty() || jokers > max_jokers) {
        return false;
    }
    std::set<char> suits;
    std::set<int> ranks;
    for (const std::string& c : naturals) {
        suits.insert(suit(c));
        ranks.insert(rank(c));
    }
    if (cards.size() <= 4 && ranks.size() == 1 && suits.size() == naturals.size()) {
        return true;  // a set; its jokers stand for the missing suits
    }
    if (suits.size() != 1 || cards.size() > 13) {
        return false;
    }
    for (int ace : {1, 14}) {  // the ace as the low end, then as the high end
        std::set<int> values;  // sorted: *begin() is the lowest, *rbegin() the highest
        for (const std::string& c : naturals) {
            values.insert(rank(c) == 1 ? ace : rank(c));
        }
        // No rank twice, and the jokers can fill the gaps: the ranks span at most the size.
        if (values.size() == naturals.size() &&
            *values.rbegin() - *values.begin() < static_cast<int>(cards.size())) {
            return true;
        }
    }
    return false;
}

// Melds made of cards of `hand`: each set of one rank, each longest run of one suit, then pairs
// that a joker makes a meld. They may share cards: `choose` lays what it can.
std::vector<Cards> melds_in(const Cards& hand, int max_jokers) {
    std::vector<Cards> melds;
    for (const std::string& r : RANKS) {  // sets: one card of each suit the hand holds in rank r
        Cards same_rank;
        for (const std::string& s : SUITS) {
            if (contains(hand, r + s)) {
                same_rank.push_back(r + s);
            }
        }
        if (same_rank.size() >= 3) {
            melds.push_back(same_rank);
        }
    }
    Cards ranks_and_ace = RANKS;
    ranks_and_ace.push_back("A");  // the ace again after the king
    for (const std::string& s : SUITS) {  // runs: consecutive ranks of suit s
        Cards streak;
        for (const std::string& r : ranks_and_ace) {
            const std::string card = r + s;
            if (contains(hand, card) && streak.size() < 13) {  // A..K and A again: 14 cards
                streak.push_back(card);
            } else {  // the streak ends here
                if (streak.size() >= 3) {
                    melds.push_back(streak);
                }
                streak.clear();
                if (contains(hand, card)) {
                    streak.push_back(card);
                }
            }
        }
        if (streak.size() >= 3) {
            melds.push_back(streak);
        }
    }
    if (contains(hand, JOKER) && max_jokers >= 1) {  // a joker completes two cards into a meld
        std::set<std::string> distinct(hand.begin(), hand.end());  // sorted, no repeats
        distinct.erase(JOKER);
        const Cards naturals(distinct.begin(), distinct.end());
        for (std::size_t i = 0; i < naturals.size(); ++i) {
            for (std::size_t j = i + 1; j < naturals.size(); ++j) {
                const Cards meld = {naturals[i], naturals[j], JOKER};
                if (is_meld(meld, max_jokers)) {
                    melds.push_back(meld);
                }
            }
        }
    }
    return melds;
}

// Picks the action: {"play": the new table} or {"draw": true}. `view` holds everything the seat
// may know: its sorted `hand`, the `table` (a list of melds), the size of the stock and of every
// hand, the points so far. A play must hold every card of the table, at least one card from the
// hand, and nothing else, in valid melds.
json choose(std::mt19937_64& rng, const json& view, int max_jokers) {
    Cards hand = view.at("hand").get<Cards>();
    std::vector<Cards> melds = melds_in(hand, max_jokers);
    // Any order: a Fisher-Yates shuffle (std::shuffle's algorithm is each standard library's
    // own; this one gives the same order for the same seed whatever the compiler)...
    for (std::size_t i = melds.size(); i > 1; --i) {
        std::swap(melds[i - 1], melds[rng() % i]);
    }
    // ...but melds without a joker first, to keep the jokers for later (the sort is stable).
    std::stable_sort(melds.begin(), melds.end(), [](const Cards& a, const Cards& b) {
        return !contains(a, JOKER) && contains(b, JOKER);
    });
    json laid = json::array();
    for (const Cards& meld : melds) {
        // Lay it if its cards are still in the hand (an earlier meld may have used them).
        const bool in_hand = std::all_of(meld.begin(), meld.end(), [&](const std::string& c) {
            return count(hand, c) >= count(meld, c);
        });
        if (in_hand && is_meld(meld, max_jokers)) {
            for (const std::string& c : meld) {
                hand.erase(std::find(hand.begin(), hand.end(), c));
            }
            laid.push_back(meld);
        }
    }
    if (!laid.empty()) {
        json table = view.at("table");  // the table's melds as they were, plus ours
        for (const json& meld : laid) {
            table.push_back(meld);
        }
        return {{"play", table}};
    }
    return {{"draw", true}};
}

int main() {
    std::mt19937_64 rng(0);  // replaced at every match_start: the bot is deterministic
    int max_jokers = 1;  // jokers allowed in one meld: the option jokers_per_meld, 1 unless set
    std::string line;
    while (std::getline(std::cin, line)) {  // one message per line; false at EOF
        if (line.find_first_not_of(" \t\r") == std::string::npos) {
            continue;  // a blank line
        }
        const json message = json::parse(line);
        const std::string kind = message.value("type", "");
        if (kind == "hello") {  // the first message: say who we are and which protocol we speak
            send({{"type", "hello"}, {"name", NAME}, {"protocol", 1}});
        } else if (kind == "match_start") {  // a new match: seed our random choices, read options
            rng.seed(message.at("seed").get<std::uint64_t>());
            max_jokers = message.value("options", json::object()).value("jokers_per_meld", 1);
        } else if (kind == "request") {  // our turn: answer with an action, echoing the id
            const json action = choose(rng, message.at("view"), max_jokers);
            send({{"type", "action"}, {"id", message.at("id")}, {"action", action}});
        } else if (kind == "goodbye") {  // no more matches
            break;
        }
        // Anything else (event, error, match_end, or a type added later) is ignored.
    }
    return 0;
}
