#!/usr/bin/env python3
"""A heuristic La Bouillabaisse bot (Python 3.11, standard library only).

Run it with: referee match --game bouillabaisse --bot a=sample-bots/python/bouillabaisse_heuristic.py ...

The bot is stateless: it decides from each request's view alone (hand, trick so far, what each
scoring item is worth in this manche, the chosen suit, face rank and card). Cards compare by
rank, "23456789TJQKA"; only cards of the led suit can win a trick.

A card's *danger* is the points it carries in this manche, for whoever takes it: the scoring
value of the chosen suit if it is of that suit, plus that of the chosen face rank if it has that
rank, plus that of the chosen card if it is that card (negative in manche 6).

* Manches 1 to 5 (every value >= 0: take as little as possible).
  - Following suit: play the highest card that still loses to the trick's winning card (the
    highest card of the led suit so far; with two decks an identical card played later loses).
    If every card would win: the last to play wins anyway, so it sheds its highest card (the
    least dangerous one first); anyone else plays its lowest, hoping to be overtaken.
  - Void in the led suit: dump the most dangerous card, then the highest.
  - Leading: lead the lowest card, preferring cards with no danger.
* Manche 6 (every value < 0: taking points is good).
  - Following suit: every trick is worth points there, so try to win it. The last to play wins
    with its cheapest winning card (the most valuable one first); anyone else plays its highest
    card. If no card can win, give away the least valuable, lowest card.
  - Void in the led suit: dump the least dangerous, lowest card (keep the valuable ones).
  - Leading: lead the highest card.

Deterministic: ties are broken by a random generator seeded with match_start's seed.
Logs go to stderr; stdout carries protocol lines only.
"""
import json
import random
import sys

NAME = "python-heuristic"
RANKS = "23456789TJQKA"  # low to high: "2" is rank 2, "A" rank 14


def log(*parts):
    print(f"{NAME}:", *parts, file=sys.stderr, flush=True)


def send(message):
    sys.stdout.write(json.dumps(message, separators=(",", ":")) + "\n")
    sys.stdout.flush()


# ----- cards ---------------------------------------------------------------------------------


def rank(card):
    """The rank of a card such as "QS": 2 to 14 (the ace)."""
    return RANKS.index(card[0]) + 2


def suit(card):
    """The suit letter of a card: C, D, H or S."""
    return card[1]


def danger(card, view):
    """The points `card` carries in this manche for whoever takes it (negative in manche 6)."""
    chosen, scoring = view["chosen"], view["scoring"]
    points = 0
    if suit(card) == chosen["suit"]:
        points += scoring["suit"]
    if rank(card) == chosen["rank"]:
        points += scoring["rank"]
    if card == chosen["card"]:
        points += scoring["card"]
    return points


def winning_rank(trick):
    """The rank of the card that wins the trick so far: the highest of the led suit. (With two
    decks an identical card played later loses, so a card must be strictly higher to win.)"""
    led = suit(trick[0]["card"])
    return max(rank(p["card"]) for p in trick if suit(p["card"]) == led)


def legal_cards(request):
    """The cards we may play: from `legal` (always sent), else worked out from the hand."""
    if request.get("legal"):
        return [action["card"] for action in request["legal"]]
    view = request["view"]
    hand, trick = view["hand"], view["trick"]
    if trick:
        follow = [c for c in hand if suit(c) == suit(trick[0]["card"])]
        if follow:
            return follow
    return list(hand)


# ----- the decision --------------------------------------------------------------------------


class Heuristic:
    def __init__(self):
        self.rng = random.Random(0)  # replaced at every match_start

    def pick(self, cards, key):
        """The card with the smallest key; ties broken by the seeded generator."""
        return min(cards, key=lambda c: (key(c), self.rng.random()))

    def decide(self, request):
        view = request["view"]
        cards = legal_cards(request)
        trick = view["trick"]
        scoring = view["scoring"]
        # Manches 1-5 score every item >= 0 (avoid points); manche 6 scores them < 0 (take them).
        avoid = min(scoring["trick"], scoring["suit"], scoring["rank"], scoring["card"]) >= 0
        if not trick:
            card = self.lead(cards, view, avoid)
        elif any(suit(c) == suit(trick[0]["card"]) for c in cards):
            # We hold the led suit, so every legal card is of it.
            last = len(trick) == view["players"] - 1
            card = self.follow(cards, view, avoid, winning_rank(trick), last)
        else:
            card = self.discard(cards, view, avoid)
        return {"card": card}

    def lead(self, cards, view, avoid):
        if avoid:
            # The lowest card, preferring those that carry no points.
            return self.pick(cards, lambda c: (danger(c, view) > 0, rank(c)))
        # Manche 6: the highest card, the likeliest to win the trick.
        return self.pick(cards, lambda c: -rank(c))

    def follow(self, cards, view, avoid, top, last):
        losers = [c for c in cards if rank(c) <= top]
        winners = [c for c in cards if rank(c) > top]
        if avoid:
            if losers:
                # The highest card that still loses: it sheds a high card at no cost.
                return self.pick(losers, lambda c: -rank(c))
            if last:
                # We win anyway: shed the highest card, but not one that adds points.
                return self.pick(winners, lambda c: (danger(c, view), -rank(c)))
            # Someone after us may still play higher: give them the best chance.
            return self.pick(winners, lambda c: rank(c))
        # Manche 6: taking the trick is worth points (at least the trick's own value).
        if winners:
            if last:
                # Sure to win: with the most valuable winning card, else the cheapest.
                return self.pick(winners, lambda c: (danger(c, view), rank(c)))
            return self.pick(winners, lambda c: -rank(c))
        # We cannot win: give the winner as little as possible.
        return self.pick(losers, lambda c: (-danger(c, view), rank(c)))

    def discard(self, cards, view, avoid):
        if avoid:
            # Void in the led suit: get rid of the most dangerous card, then the highest.
            return self.pick(cards, lambda c: (-danger(c, view), -rank(c)))
        # Manche 6: keep the valuable cards to win them back later; dump the cheapest, lowest.
        return self.pick(cards, lambda c: (-danger(c, view), rank(c)))


def main():
    bot = Heuristic()
    for line in sys.stdin:  # one message per line; the loop ends when stdin closes (EOF)
        if not line.strip():
            continue
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":  # the first message: say who we are and which protocol we speak
            send({"type": "hello", "name": NAME, "protocol": 1})
        elif kind == "match_start":  # a new match: seed the tie-breaks with its seed
            bot.rng = random.Random(message["seed"])
        elif kind == "request":  # our turn: answer with an action, echoing the request's id
            try:
                action = bot.decide(message)
            except Exception as error:  # never leave the referee without an answer
                log(f"decision failed ({error!r}); playing the first legal card")
                action = (message.get("legal") or [{}])[0]
            send({"type": "action", "id": message["id"], "action": action})
        elif kind == "error":
            log("referee error:", message.get("fault"), message.get("message"))
        elif kind == "match_end":
            log("match end:", message.get("scores"), message.get("ranks"))
        elif kind == "goodbye":  # no more matches
            break
        # Anything else (event, or a type added later) is ignored.


if __name__ == "__main__":
    main()
