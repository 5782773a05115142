// A La Bouillabaisse bot that plays uniformly at random among the legal cards (C++17, with the
// JSON library nlohmann::json: Debian's package nlohmann-json3-dev).
//
// It is the smallest complete bot: copy it and replace `choose` with your own strategy.
// The referee talks to the bot in JSON Lines: one JSON object per line on standard input, and
// the bot answers with one JSON object per line on standard output. Standard output carries
// protocol lines only: print any log to standard error (std::cerr).
//
// `referee new-bot --lang cpp` writes this file as bot.cpp. Build and run it in its directory:
//   g++ -std=c++17 -O2 -Wall -o bot bot.cpp
//   referee match --game bouillabaisse --bot a=./bot ...

#include <cstdint>
#include <iostream>
#include <random>
#include <string>

#include <nlohmann/json.hpp>

// ordered_json writes the keys in the order they were set: easier to read in a log.
using json = nlohmann::ordered_json;

const char* const NAME = "cpp-random";

// Writes one message as one line and flushes at once: the referee waits for the line, and
// std::cout keeps what it is given in a buffer until it is flushed.
void send(const json& message) {
    std::cout << message.dump() << '\n' << std::flush;
}

// Picks the card to play. `request["view"]` holds everything the seat may know (hand, trick so
// far, chosen cards, scores...); this bot ignores it and draws among `legal`, which lists every
// legal card as an action such as {"card": "QS"}.
//
// `rng() % n` rather than std::uniform_int_distribution, whose algorithm each standard library
// chooses: this way the same seed gives the same play whatever the compiler.
json choose(std::mt19937_64& rng, const json& request) {
    const json& legal = request.at("legal");
    return legal.at(rng() % legal.size());
}

int main() {
    std::mt19937_64 rng(0);  // replaced at every match_start: the bot is deterministic
    std::string line;
    while (std::getline(std::cin, line)) {  // one message per line; false at EOF
        if (line.find_first_not_of(" \t\r") == std::string::npos) {
            continue;  // a blank line
        }
        const json message = json::parse(line);
        const std::string kind = message.value("type", "");
        if (kind == "hello") {  // the first message: say who we are and which protocol we speak
            send({{"type", "hello"}, {"name", NAME}, {"protocol", 1}});
        } else if (kind == "match_start") {  // a new match: seed our random choices with its seed
            rng.seed(message.at("seed").get<std::uint64_t>());
        } else if (kind == "request") {  // our turn: answer with an action, echoing the id
            send({{"type", "action"}, {"id", message.at("id")}, {"action", choose(rng, message)}});
        } else if (kind == "goodbye") {  // no more matches
            break;
        }
        // Anything else (event, error, match_end, or a type added later) is ignored.
    }
    return 0;
}
