#!/usr/bin/env python3
"""A heuristic Vabanque bot (Python 3.11, standard library only).

Run it with: referee match --game vabanque --bot a=sample-bots/python/vabanque_heuristic.py ...

The strategy, phase by phase:

* Opponent model. An opponent's token can end this round on the 5 tables 0..4 steps clockwise
  from it. The bot guesses where each opponent will go as a mix of "uniformly at random among
  its reachable tables" and "to the reachable table that looks best for it". The weight of the
  second part is learnt from how often that opponent did go to its best-looking table (per
  opponent, within the match).
* Hidden cards. An opponent holds one Raise, one Bluff and one Trap each round, so if it laid
  k of its 3 cards at a table, its Trap is there with probability k/3, and if it is not, those
  k cards hold k/2 Raises on average. That is only the prior: the bot learns, per opponent,
  from the cards revealed at earlier payouts of the match, how often a group of k cards held the Trap,
  telling apart tables that opponent's own token could reach from those it could not.
* Chips go where they raise the best table our own token can reach, preferably where few
  opponents can follow (a chip there pays them too).
* Cards: the Bluff goes first, to the table that looks best for the opponents (it makes that
  table look trapped), then the Trap where the opponents' tokens are expected with the most
  value, then the Raise, last so as to see as many cards as possible, at the table our own
  token means to end on (a Trap there too is fine: our own Trap never blocks our token).
* Move: to the reachable table with the best expected payout
  chips x (1 + own Raises + expected opposing Raises) x P(no opposing Trap there),
  plus a little for the chips the token will reach next round.

Deterministic: every tie is broken by a random generator seeded with match_start's seed, and
everything learnt is forgotten at the next match_start, so a match's play does not depend on
which matches the same process played before (a tournament may give a process any of them).
Logs go to stderr; stdout carries protocol lines only.
"""
import json
import random
import sys

NAME = "python-heuristic"
MAX_STEPS = 4
# How much a chip or a card that pays an opponent counts against us (winning is about
# having more than the others, not just having much).
SPITE = 1.5
# Value of a chip on a table we can reach that is not (yet) our best one: a fallback.
FALLBACK = 0.25
# Weight of next round's reachable chips when choosing where to move.
FUTURE = 0.05
# Prior for "how often an opponent goes to its best-looking table", as pseudo-counts.
PRIOR_HITS, PRIOR_MOVES = 1.0, 2.0
# Weight, in pseudo-observations, of the uniform prior on an opponent's hidden cards.
PRIOR_CARDS = 3.0


def log(*parts):
    print(f"{NAME}:", *parts, file=sys.stderr, flush=True)


def send(message):
    sys.stdout.write(json.dumps(message, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def reach(token, tables):
    """Tables a token on `token` can end on this round (0 to 4 steps clockwise)."""
    return sorted({(token + steps) % tables for steps in range(MAX_STEPS + 1)})


class Heuristic:
    def __init__(self):
        self.rng = random.Random(0)
        self.seat = 0
        self.names = []
        # Per opponent name: [times it went to its best-looking table, moves seen].
        self.greed_stats = {}
        # Per (opponent name, k cards, table in its reach): [groups seen, groups holding its
        # Trap, Raises in the groups without its Trap].
        self.card_stats = {}
        # What we know of the current round, kept up to date from events between requests.
        self.chips = []
        self.cards = []  # (owner, table) of this round's cards
        self.tokens = []
        self.origins = []  # the table each token stood on before this round's move

    # ----- bookkeeping -------------------------------------------------------------------

    def match_start(self, message):
        self.rng = random.Random(message["seed"])
        self.seat = message["seat"]
        self.names = list(message["players"])
        self.greed_stats, self.card_stats = {}, {}
        self.chips, self.cards, self.tokens = [], [], []
        self.origins = [0] * len(self.names)

    def sync(self, view):
        """The view is the truth: take it over at every request."""
        self.chips = list(view["table_chips"])
        self.cards = [(c["owner"], c["table"]) for c in view["cards"]]
        self.tokens = list(view["tokens"])
        if len(self.names) != view["players"]:  # no match_start seen: make do
            self.names = [f"seat {seat}" for seat in range(view["players"])]
        if len(self.origins) != view["players"]:
            self.origins = list(view["tokens"])
        for seat, moved in enumerate(view["moved"]):
            if not moved:
                self.origins[seat] = view["tokens"][seat]

    def event(self, event):
        kind = event.get("kind")
        if kind == "chip" and self.chips:
            self.chips[event["table"]] += event["value"]
        elif kind == "card":
            self.cards.append((event["seat"], event["table"]))
        elif kind == "move" and self.chips:
            seat = event["seat"]
            if seat != self.seat and seat < len(self.names):
                self.learn_move(seat, event["from"], event["to"])
            if seat < len(self.tokens):
                self.tokens[seat] = event["to"]
            if seat < len(self.origins):
                self.origins[seat] = event["from"]
        elif kind == "payout":
            self.learn_cards(event)
            self.cards = []
        elif kind == "round_start":
            self.cards = []

    def learn_cards(self, payout):
        """Revealed cards: did an opponent's group of k cards at a table hold its Trap?"""
        tables = len(self.chips)
        for table in payout.get("tables", []):
            groups = {}
            for card in table["cards"]:
                if card["owner"] != self.seat and card["owner"] < len(self.names):
                    groups.setdefault(card["owner"], []).append(card["card"])
            for owner, kinds in groups.items():
                if len(kinds) >= 3 or not tables:
                    continue  # three cards always hold the Trap: nothing to learn
                key = (self.names[owner], len(kinds), table["table"] in reach(self.origins[owner], tables))
                stats = self.card_stats.setdefault(key, [0, 0, 0])
                stats[0] += 1
                if "trap" in kinds:
                    stats[1] += 1
                else:
                    stats[2] += kinds.count("raise")

    def hidden(self, seat, k, table):
        """(probability that `seat`'s k cards at `table` hold its Trap, expected Raises among
        them if they do not): the uniform prior k/3 and k/2, corrected by what was revealed."""
        if k == 0:
            return 0.0, 0.0
        if k >= 3:
            return 1.0, 0.0
        name = self.names[seat] if seat < len(self.names) else ""
        origin = self.origins[seat] if seat < len(self.origins) else 0
        key = (name, k, table in reach(origin, len(self.chips)))
        seen, traps, raises = self.card_stats.get(key, [0, 0, 0])
        p_trap = (traps + PRIOR_CARDS * k / 3) / (seen + PRIOR_CARDS)
        safe_seen = seen - traps
        prior_safe = PRIOR_CARDS * (1 - k / 3)
        raises_if_safe = (raises + prior_safe * k / 2) / (safe_seen + prior_safe)
        return p_trap, raises_if_safe

    def learn_move(self, seat, origin, destination):
        """Did `seat` go to the table that looked best for it? Counts per player name."""
        tables = len(self.chips)
        counts = self.card_counts(self.cards, len(self.names), tables)
        best = self.greedy_choices(seat, origin, self.chips, counts)
        stats = self.greed_stats.setdefault(self.names[seat], [0, 0])
        stats[0] += destination in best
        stats[1] += 1

    def greed(self, seat):
        """Estimated probability that `seat` goes to its best-looking table rather than at
        random (a random player hits it 1 time in 5 by chance)."""
        hits, moves = self.greed_stats.get(self.names[seat] if seat < len(self.names) else "", [0, 0])
        rate = (hits + PRIOR_HITS) / (moves + PRIOR_MOVES)
        return min(1.0, max(0.0, (rate - 0.2) / 0.8))

    # ----- the model -----------------------------------------------------------------------

    @staticmethod
    def card_counts(cards, players, tables):
        """counts[seat][table]: how many cards `seat` laid at `table` this round."""
        counts = [[0] * tables for _ in range(players)]
        for owner, table in cards:
            counts[owner][table] += 1
        return counts

    @staticmethod
    def looks(chips, counts, viewer, table):
        """Expected payout of `viewer`'s token at `table`, as `viewer` sees it, not knowing the
        other players' card types (its own cards never block it; k of them hold k/3 Raises)."""
        safe, raises = 1.0, counts[viewer][table] / 3
        for seat, row in enumerate(counts):
            k = row[table]
            if seat != viewer and k:
                safe *= 1 - k / 3
                raises += k / 2 if k < 3 else 0
        return chips[table] * safe * (1 + raises)

    def greedy_choices(self, seat, token, chips, counts):
        """The reachable tables that look best to `seat` (ties all count)."""
        options = reach(token, len(chips))
        scores = {t: self.looks(chips, counts, seat, t) for t in options}
        top = max(scores.values())
        return [t for t in options if scores[t] >= top - 1e-9]

    def whereabouts(self, view, counts):
        """where[seat][table]: probability that an opponent's token ends the round there."""
        tables = view["tables"]
        where = []
        for seat in range(view["players"]):
            p = [0.0] * tables
            if seat == view["you"]:
                pass
            elif view["moved"][seat]:
                p[view["tokens"][seat]] = 1.0
            else:
                options = reach(view["tokens"][seat], tables)
                best = self.greedy_choices(seat, view["tokens"][seat], view["table_chips"], counts)
                w = self.greed(seat)
                for t in options:
                    p[t] += (1 - w) / len(options)
                for t in best:
                    p[t] += w / len(best)
            where.append(p)
        return where

    def my_payout(self, view, counts, table, extra_raise=0):
        """Expected payout of our own token at `table`: chips x (1 + Raises) x P(no Trap),
        with the opponents' hidden cards as estimated by `hidden`."""
        me = view["you"]
        raises = extra_raise + sum(
            1 for c in view["cards"] if c["owner"] == me and c["table"] == table and c.get("card") == "raise"
        )
        safe = 1.0
        for seat, row in enumerate(counts):
            if seat != me and row[table]:
                p_trap, raises_if_safe = self.hidden(seat, row[table], table)
                safe *= 1 - p_trap
                raises += raises_if_safe
        return view["table_chips"][table] * safe * (1 + raises)

    def best(self, options, score):
        """The option with the highest score; ties broken by the seeded generator."""
        scored = [(score(o), self.rng.random(), o) for o in options]
        return max(scored, key=lambda s: (round(s[0], 9), s[1]))[2]

    # ----- decisions -----------------------------------------------------------------------

    def decide(self, request):
        view = request["view"]
        self.sync(view)
        counts = self.card_counts(self.cards, view["players"], view["tables"])
        phase = request["phase"]
        if phase == "chip":
            return self.chip(view, counts)
        if phase == "card":
            return self.card(view, counts)
        return self.move(view, counts)

    def chip(self, view, counts):
        me, tables, value = view["you"], view["tables"], view["chip_value"]
        mine = reach(view["tokens"][me], tables)
        where = self.whereabouts(view, counts)
        chips = view["table_chips"]
        now = max(chips[t] for t in mine)

        def gain(table):
            after = max(chips[t] + (value if t == table else 0) for t in mine)
            others = sum(where[s][table] for s in range(view["players"]) if s != me)
            return (after - now) + FALLBACK * value * (table in mine) - SPITE * value * others

        return {"table": self.best(range(tables), gain)}

    def target(self, view, counts):
        """The reachable table our token means to end on (with our Raise, if still in hand)."""
        me = view["you"]
        extra = 1 if "raise" in view["hand"] else 0
        return self.best(
            reach(view["tokens"][me], view["tables"]),
            lambda t: self.my_payout(view, counts, t, extra),
        )

    def card(self, view, counts):
        me, tables, hand = view["you"], view["tables"], view["hand"]
        where = self.whereabouts(view, counts)
        opponents = [s for s in range(view["players"]) if s != me]
        goal = self.target(view, counts)

        def value(table):
            """The table's value as it stands (plus our Raise if it goes to our goal)."""
            raises = sum(counts[s][table] for s in opponents) / 3
            raises += sum(1 for c in view["cards"] if c["owner"] == me and c["table"] == table
                          and c.get("card") == "raise")
            raises += 1 if table == goal and "raise" in hand else 0
            return view["table_chips"][table] * (1 + raises)

        def trap_gain(table):
            victims = sum(where[s][table] for s in opponents)
            return value(table) * victims * (1 + SPITE)

        if "bluff" in hand:
            # Make the table the opponents like best look trapped (but not our own goal, and
            # not where our Trap would do best).
            trap_spot = self.best(range(tables), trap_gain) if "trap" in hand else None

            def deterrence(table):
                if table in (goal, trap_spot):
                    return -1.0
                return sum(where[s][table] for s in opponents) * view["table_chips"][table]

            return {"card": "bluff", "table": self.best(range(tables), deterrence)}
        if "trap" in hand:
            return {"card": "trap", "table": self.best(range(tables), trap_gain)}
        return {"card": "raise", "table": goal}

    def move(self, view, counts):
        me, tables = view["you"], view["tables"]
        token = view["tokens"][me]
        last_round = view["round"] >= 4

        def score(steps):
            table = (token + steps) % tables
            future = 0 if last_round else sum(view["table_chips"][t] for t in reach(table, tables))
            return self.my_payout(view, counts, table) + FUTURE * future

        return {"steps": self.best(range(MAX_STEPS + 1), score)}


def main():
    bot = Heuristic()
    for line in sys.stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            send({"type": "hello", "name": NAME, "protocol": 1})
        elif kind == "match_start":
            bot.match_start(message)
        elif kind == "request":
            try:
                action = bot.decide(message)
            except Exception as error:  # never leave the referee without an answer
                log(f"decision failed ({error!r}); playing the first legal action")
                action = (message.get("legal") or [{}])[0]
            send({"type": "action", "id": message["id"], "action": action})
        elif kind == "event":
            try:
                bot.event(message.get("event", {}))
            except Exception as error:  # bookkeeping only: the next view puts it right
                log(f"could not follow event ({error!r})")
        elif kind == "error":
            log("referee error:", message.get("fault"), message.get("message"))
        elif kind == "match_end":
            log("match end:", message.get("scores"), message.get("ranks"))
        elif kind == "goodbye":
            break


if __name__ == "__main__":
    main()
