#!/usr/bin/env python3
"""A La Bouillabaisse bot that plays uniformly at random among the legal cards.

It is the smallest complete bot: copy it and replace `choose` with your own strategy.
The referee talks to the bot in JSON Lines: one JSON object per line on standard input,
and the bot answers with one JSON object per line on standard output. Standard output
carries protocol lines only: print any log to standard error.

Run it with: referee match --game bouillabaisse --bot a=sample-bots/python/bouillabaisse_random.py ...
"""
import json
import random
import sys

NAME = "python-random"


def send(message):
    """Writes one message as one line and flushes at once: the referee waits for it."""
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def choose(rng, request):
    """Picks the card to play. `request["view"]` holds everything the seat may know
    (hand, trick so far, chosen cards, scores...); this bot ignores it and draws among
    `legal`, which lists every legal card as an action such as {"card": "QS"}."""
    return rng.choice(request["legal"])


def main():
    rng = random.Random(0)  # replaced at every match_start: the bot is deterministic
    for line in sys.stdin:  # one message per line; the loop ends when stdin closes (EOF)
        if not line.strip():
            continue
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":  # the first message: say who we are and which protocol we speak
            send({"type": "hello", "name": NAME, "protocol": 1})
        elif kind == "match_start":  # a new match: seed our random choices with its seed
            rng = random.Random(message["seed"])
        elif kind == "request":  # our turn: answer with an action, echoing the request's id
            send({"type": "action", "id": message["id"], "action": choose(rng, message)})
        elif kind == "goodbye":  # no more matches
            break
        # Anything else (event, error, match_end, or a type added later) is ignored.


if __name__ == "__main__":
    main()
