#!/usr/bin/env python3
"""A Machiavelli bot that lays the sets and runs it can form from its own hand, else draws.

It is the smallest complete bot: copy it and replace `choose` with your own strategy.
Machiavelli lists no legal actions: a play is the whole new table, which the bot builds
itself. This one keeps the table's melds as they are and adds melds made of its own cards,
in a random order (a stronger bot rearranges the table: machiavelli_rearranger.py).
The referee talks to the bot in JSON Lines: one JSON object per line on standard input,
and the bot answers with one JSON object per line on standard output. Standard output
carries protocol lines only: print any log to standard error.

Run it with: referee match --game machiavelli --bot a=sample-bots/python/machiavelli_random.py ...
"""
import json
import random
import sys

NAME = "python-random"
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]  # ranks 1 to 13
SUITS = ["C", "D", "H", "S"]
JOKER = "JK"


def send(message):
    """Writes one message as one line and flushes at once: the referee waits for it."""
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def rank(card):
    """The rank of a card such as "10S": 1 (the ace) to 13 (the king). The suit is card[-1]."""
    return RANKS.index(card[:-1]) + 1


def is_meld(cards, max_jokers):
    """Whether `cards` is a valid meld: a set (3 or 4 cards of one rank, all suits different)
    or a run (3 to 13 cards of one suit in consecutive ranks, the ace low as in A-2-3 or high
    as in Q-K-A, never both). A joker stands for any card: at most `max_jokers` in a meld,
    and never a meld of jokers only."""
    naturals = [c for c in cards if c != JOKER]
    jokers = len(cards) - len(naturals)
    if len(cards) < 3 or not naturals or jokers > max_jokers:
        return False
    suits = {c[-1] for c in naturals}
    if len(cards) <= 4 and len({rank(c) for c in naturals}) == 1 and len(suits) == len(naturals):
        return True  # a set; its jokers stand for the missing suits
    if len(suits) != 1 or len(cards) > 13:
        return False
    for ace in (1, 14):  # the ace as the low end, then as the high end
        values = {ace if rank(c) == 1 else rank(c) for c in naturals}
        # No rank twice, and the jokers can fill the gaps: the ranks span at most len(cards).
        if len(values) == len(naturals) and max(values) - min(values) < len(cards):
            return True
    return False


def melds_in(hand, max_jokers):
    """Melds made of cards of `hand`: each set of one rank, each longest run of one suit,
    then pairs that a joker makes a meld. They may share cards: `choose` lays what it can."""
    melds = []
    for r in RANKS:  # sets: one card of each suit that the hand holds in rank r
        same_rank = [r + s for s in SUITS if r + s in hand]
        if len(same_rank) >= 3:
            melds.append(same_rank)
    for s in SUITS:  # runs: consecutive ranks of suit s, with the ace again after the king
        streak = []
        for r in RANKS + ["A"]:
            if r + s in hand and len(streak) < 13:  # A..K and A again would be 14 cards
                streak.append(r + s)
            else:  # the streak ends here
                if len(streak) >= 3:
                    melds.append(streak)
                streak = [r + s] if r + s in hand else []
        if len(streak) >= 3:
            melds.append(streak)
    if JOKER in hand and max_jokers >= 1:  # a joker completes two cards into a meld
        naturals = sorted(set(hand) - {JOKER})
        for i, a in enumerate(naturals):
            for b in naturals[i + 1:]:
                if is_meld([a, b, JOKER], max_jokers):
                    melds.append([a, b, JOKER])
    return melds


def choose(rng, request, max_jokers):
    """Picks the action: {"play": the new table} or {"draw": True}. `request["view"]` holds
    everything the seat may know: its sorted `hand`, the `table` (a list of melds), the
    size of the stock and of every hand, the points so far. A play must hold every card of
    the table, at least one card from the hand, and nothing else, in valid melds."""
    view = request["view"]
    hand = list(view["hand"])
    melds = melds_in(hand, max_jokers)
    rng.shuffle(melds)  # any order; melds without a joker first, to keep the jokers for later
    melds.sort(key=lambda meld: JOKER in meld)
    laid = []
    for meld in melds:
        # Lay it if its cards are still in the hand (an earlier meld may have used them).
        if all(hand.count(c) >= meld.count(c) for c in meld) and is_meld(meld, max_jokers):
            for c in meld:
                hand.remove(c)
            laid.append(meld)
    if laid:
        return {"play": view["table"] + laid}  # the table's melds as they were, plus ours
    return {"draw": True}


def main():
    rng = random.Random(0)  # replaced at every match_start: the bot is deterministic
    max_jokers = 1  # jokers allowed in one meld: the option jokers_per_meld, 1 unless set
    for line in sys.stdin:  # one message per line; the loop ends when stdin closes (EOF)
        if not line.strip():
            continue
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":  # the first message: say who we are and which protocol we speak
            send({"type": "hello", "name": NAME, "protocol": 1})
        elif kind == "match_start":  # a new match: seed our random choices, read the options
            rng = random.Random(message["seed"])
            max_jokers = message.get("options", {}).get("jokers_per_meld", 1)
        elif kind == "request":  # our turn: answer with an action, echoing the request's id
            action = choose(rng, message, max_jokers)
            send({"type": "action", "id": message["id"], "action": action})
        elif kind == "goodbye":  # no more matches
            break
        # Anything else (event, error, match_end, or a type added later) is ignored.


if __name__ == "__main__":
    main()
