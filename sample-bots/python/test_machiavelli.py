"""Tests of the Machiavelli sample bots: python3 -m unittest (from sample-bots/python).

Standard library only. Each bot's meld rules are compared with an independent validator written
here another way (it tries every card a joker may stand for, then checks the plain set or run);
every table the bots send is checked by the same validator, in hand-made positions and in whole
games that a small referee here deals and plays (the real engine decides nothing here). The
JavaScript and Go starters are played through their standard input and output when `node` and
`go` are installed (the Go one built into a temporary directory first).
"""
import collections
import itertools
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

import machiavelli_random as starter
import machiavelli_rearranger as rearranger

HERE = os.path.dirname(os.path.abspath(__file__))
JS_STARTER = os.path.join(HERE, "..", "javascript", "machiavelli_random.js")
GO_STARTER = os.path.join(HERE, "..", "go", "machiavelli_random.go")
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SUITS = "CDHS"
DECK = [r + s for s in SUITS for r in RANKS]

# ----- the independent validator -------------------------------------------------------------


def plain_meld(cards):
    """A meld without jokers, from the definitions: a set is 3 or 4 cards of one rank and
    different suits; a run 3 to 13 cards of one suit whose ranks, with the ace counted 1 or
    14, are n consecutive numbers."""
    ranks = [RANKS.index(c[:-1]) + 1 for c in cards]
    suits = [c[-1] for c in cards]
    if len(cards) in (3, 4) and len(set(ranks)) == 1 and len(set(suits)) == len(suits):
        return True
    if not 3 <= len(cards) <= 13 or len(set(suits)) != 1:
        return False
    for ace in (1, 14):
        values = sorted(ace if r == 1 else r for r in ranks)
        if values == list(range(values[0], values[0] + len(values))):
            return True
    return False


def valid_meld(cards, max_jokers):
    """A meld with jokers is valid if some card for each joker makes it a plain meld."""
    naturals = [c for c in cards if c != "JK"]
    jokers = len(cards) - len(naturals)
    if jokers > max_jokers or not naturals:
        return False
    if jokers == 0:
        return plain_meld(cards)
    first = naturals[0]  # a joker can only stand for a card of its rank or of its suit
    stand_ins = [c for c in DECK if c[:-1] == first[:-1] or c[-1] == first[-1]]
    return any(plain_meld(naturals + list(chosen))
               for chosen in itertools.product(stand_ins, repeat=jokers))


def play_error(old_table, hand, new_table, max_jokers):
    """None if new_table is a valid play from old_table with hand, else what is wrong."""
    if not isinstance(new_table, list) or not all(isinstance(m, list) for m in new_table):
        return "not a list of lists"
    new = collections.Counter(c for meld in new_table for c in meld)
    old = collections.Counter(c for meld in old_table for c in meld)
    if old - new:
        return f"missing from the table: {sorted(old - new)}"
    added = new - old
    if added - collections.Counter(hand):
        return f"not in the hand: {sorted(added - collections.Counter(hand))}"
    if not added:
        return "no card from the hand"
    for meld in new_table:
        if not valid_meld(meld, max_jokers):
            return f"not a meld: {meld}"
    return None


def points(card):
    if card == "JK":
        return 25
    rank = RANKS.index(card[:-1]) + 1
    return 11 if rank == 1 else min(rank, 10)


# ----- a brute-force optimum for small positions ---------------------------------------------


def partitions_exist(cards, max_jokers):
    """Whether the multiset `cards` splits into valid melds (every subset tried: small only)."""
    if not cards:
        return True
    first, rest = cards[0], cards[1:]
    for size in range(2, len(rest) + 1):
        for chosen in set(itertools.combinations(rest, size)):
            meld = [first, *chosen]
            if valid_meld(meld, max_jokers):
                others = list(rest)
                for c in chosen:
                    others.remove(c)
                if partitions_exist(others, max_jokers):
                    return True
    return False


def best_shed(table_cards, hand, max_jokers):
    """The most points a play can shed, by trying every sub-multiset of the hand."""
    best = 0
    options = sorted(set(itertools.chain.from_iterable(
        itertools.combinations(hand, n) for n in range(1, len(hand) + 1))))
    for chosen in options:
        value = sum(points(c) for c in chosen)
        if value > best and partitions_exist(sorted(table_cards + list(chosen)), max_jokers):
            best = value
    return best


# ----- positions -----------------------------------------------------------------------------


def random_meld(rng, jokers, max_jokers):
    """A random valid meld: a set or a run, maybe with a joker replacing or adding a card."""
    if rng.random() < 0.4:
        rank = rng.choice(RANKS)
        meld = [rank + s for s in rng.sample(SUITS, rng.choice([3, 3, 4]))]
    else:
        suit = rng.choice(SUITS)
        length = rng.choice([3, 3, 3, 4, 4, 5, 6, 7])
        start = rng.randrange(0, 14 - length + 1)  # 0..13: position 13 is the ace at the top
        meld = [RANKS[(start + i) % 13] + suit for i in range(length)]
    if jokers and max_jokers and rng.random() < 0.3:
        meld[rng.randrange(len(meld))] = "JK"
    return meld


def random_position(rng, jokers=False, max_jokers=1, melds=None, hand_size=None):
    """A table of random valid melds and a random hand, from two decks (and 4 jokers)."""
    deck = DECK * 2 + (["JK"] * 4 if jokers else [])
    pool = collections.Counter(deck)
    table = []
    for _ in range(rng.randrange(0, 8) if melds is None else melds):
        meld = random_meld(rng, jokers, max_jokers)
        if not collections.Counter(meld) - pool and valid_meld(meld, max_jokers):
            pool -= collections.Counter(meld)
            table.append(meld)
    rest = list(pool.elements())
    rng.shuffle(rest)
    hand = sorted(rest[:rng.randrange(1, 20) if hand_size is None else hand_size])
    return table, hand


def view(table, hand, players=3):
    """A turn's view as the engine sends it (docs/protocol-machiavelli.md)."""
    return {"hand_number": 1, "hands": 1, "dealer": 1, "you": 0, "players": players,
            "hand": hand, "table": table, "stock": 40,
            "hand_sizes": [len(hand)] + [13] * (players - 1), "skip_available": True,
            "totals": [0] * players, "revealed": [[] for _ in range(players)]}


def starter_action(table, hand, max_jokers=1, seed=0):
    return starter.choose(random.Random(seed), {"view": view(table, hand)}, max_jokers)


def rearranger_action(table, hand, max_jokers=1, time_left_ms=None):
    """The rearranger's action; without a time limit, with all the time it wants (so that a busy
    machine cannot cut its search short and change what a test expects)."""
    bot = rearranger.Rearranger()
    bot.max_jokers = max_jokers
    unlimited = time_left_ms is None
    request = {"view": view(table, hand), "time_left_ms": 60000 if unlimited else time_left_ms}
    budget = rearranger.BUDGET_MS
    rearranger.BUDGET_MS = 20000 if unlimited else budget
    try:
        return bot.decide(request, time.monotonic())
    finally:
        rearranger.BUDGET_MS = budget


# ----- the tests -----------------------------------------------------------------------------

MELD_CASES = [  # (cards, jokers per meld, valid)
    (["QH", "QS", "QD"], 1, True),
    (["QH", "QS", "QD", "QC"], 1, True),
    (["QH", "QS", "QD", "QC", "QH"], 1, False),
    (["7H", "7H", "7S"], 1, False),
    (["9S", "10S", "JS"], 1, True),
    (["JS", "9S", "10S"], 1, True),
    (["4S", "5S", "7S"], 1, False),
    (["4S", "5S", "JK", "7S"], 1, True),
    (["4S", "5S", "7S", "JK"], 1, True),
    (["KS", "AS", "2S"], 1, False),
    (["KS", "AS", "JK"], 1, True),
    (["QS", "KS", "AS"], 1, True),
    (["AS", "2S", "3S"], 1, True),
    (["JK", "AS", "2S"], 1, True),
    (["JK", "JK", "4H"], 1, False),
    (["JK", "JK", "4H"], 2, True),
    (["JK", "JK", "JK"], 3, False),
    (["5H", "5D", "6H"], 1, False),
    (["QC"], 1, False),
    (["QC", "JK"], 1, False),
    ([r + "C" for r in RANKS], 1, True),
    ([r + "C" for r in RANKS] + ["AC"], 1, False),
    ([r + "C" for r in RANKS[1:]] + ["JK"], 1, True),
    ([r + "C" for r in RANKS] + ["JK"], 1, False),
    (["5H", "5D", "5S", "JK"], 1, True),
    (["5H", "5D", "5S", "5C", "JK"], 1, False),
    (["5H", "5H", "JK"], 1, False),
    (["5H", "5D", "JK", "JK"], 2, True),
    (["5H", "6H", "6H"], 1, False),
    (["AH", "AH", "2H", "3H"], 1, False),
    (["2H", "3H", "JK", "JK", "6H"], 2, True),
    (["2H", "3H", "JK", "7H"], 1, False),
]


class ValidatorTest(unittest.TestCase):
    def test_the_validator_on_the_designs_cases(self):
        for cards, max_jokers, expected in MELD_CASES:
            self.assertEqual(valid_meld(cards, max_jokers), expected, cards)


class MeldRulesTest(unittest.TestCase):
    """Both bots' is_meld agree with the validator, on fixed cases and on random near-melds."""

    def check(self, cards, max_jokers):
        expected = valid_meld(cards, max_jokers)
        self.assertEqual(starter.is_meld(cards, max_jokers), expected, (cards, max_jokers))
        self.assertEqual(rearranger.is_meld(cards, max_jokers), expected, (cards, max_jokers))

    def test_fixed_cases(self):
        for cards, max_jokers, _ in MELD_CASES:
            self.check(cards, max_jokers)

    def test_random_near_melds(self):
        rng = random.Random(7)
        for _ in range(4000):
            suit = rng.choice(SUITS)
            rank = rng.randrange(13)
            kind = rng.random()
            n = rng.randrange(1, 7)
            if kind < 0.4:  # same suit, ranks nearby
                cards = [RANKS[(rank + rng.randrange(-1, 6)) % 13] + suit for _ in range(n)]
            elif kind < 0.8:  # same rank, suits at random
                cards = [RANKS[rank] + rng.choice(SUITS) for _ in range(n)]
            else:
                cards = [rng.choice(DECK) for _ in range(n)]
            for _ in range(rng.choice([0, 0, 1, 1, 2, 3])):
                cards.insert(rng.randrange(len(cards) + 1), "JK")
            self.check(cards, rng.choice([1, 1, 2, 3]))


class StarterTest(unittest.TestCase):
    def test_lays_a_set_and_a_run_keeping_the_table(self):
        table = [["QD", "QH", "QS"]]
        hand = ["2C", "3C", "4C", "9D", "5D", "5H", "5S"]
        action = starter_action(table, hand)
        self.assertIsNone(play_error(table, hand, action["play"], 1))
        self.assertEqual(action["play"][0], ["QD", "QH", "QS"])
        laid = sorted(c for meld in action["play"][1:] for c in meld)
        self.assertEqual(laid, sorted(["2C", "3C", "4C", "5D", "5H", "5S"]))

    def test_draws_without_a_meld(self):
        self.assertEqual(starter_action([["QD", "QH", "QS"]], ["2C", "3C", "9D", "KS"]),
                         {"draw": True})
        self.assertEqual(starter_action([], ["AC"]), {"draw": True})

    def test_runs_with_the_ace_low_or_high_and_one_ace_used_once(self):
        hand = ["AS", "2S", "3S", "QS", "KS"]
        action = starter_action([], hand)
        self.assertIsNone(play_error([], hand, action["play"], 1))
        self.assertEqual(len(action["play"]), 1)
        hand = ["AS", "AS", "2S", "3S", "QS", "KS"]
        action = starter_action([], hand)
        self.assertEqual(sorted(map(sorted, action["play"])),
                         [["2S", "3S", "AS"], ["AS", "KS", "QS"]])

    def test_all_thirteen_and_the_second_ace(self):
        hand = sorted([r + "H" for r in RANKS] + ["AH"])
        action = starter_action([], hand)
        self.assertIsNone(play_error([], hand, action["play"], 1))

    def test_a_joker_completes_a_pair(self):
        hand = ["7C", "7H", "JK", "KS"]
        action = starter_action([], hand)
        self.assertIsNone(play_error([], hand, action["play"], 1))
        self.assertEqual(sorted(action["play"][0]), ["7C", "7H", "JK"])

    def test_every_play_is_valid_in_random_positions(self):
        rng = random.Random(11)
        plays = 0
        for i in range(1500):
            jokers = i % 2 == 1
            max_jokers = rng.choice([1, 1, 2])
            table, hand = random_position(rng, jokers, max_jokers)
            action = starter_action(table, hand, max_jokers, seed=i)
            if "play" in action:
                plays += 1
                self.assertIsNone(play_error(table, hand, action["play"], max_jokers),
                                  (table, hand, action))
            else:
                self.assertEqual(action, {"draw": True})
        self.assertGreater(plays, 100)


class RearrangerTest(unittest.TestCase):
    def test_the_guides_kings_queens_and_jacks(self):
        table = [["KH", "KD", "KC"], ["QH", "QD", "QC"], ["JH", "JD", "JC"]]
        action = rearranger_action(table, ["AC"])
        self.assertIsNone(play_error(table, ["AC"], action["play"], 1))
        self.assertEqual(sorted(sorted(meld) for meld in action["play"]),
                         [["AC", "JC", "KC", "QC"], ["JD", "KD", "QD"], ["JH", "KH", "QH"]])

    def test_the_guides_example_on_a_big_table_searched_a_part_at_a_time(self):
        table = [["KH", "KD", "KC"], ["QH", "QD", "QC"], ["JH", "JD", "JC"],
                 ["2S", "3S", "4S", "5S"], ["5C", "6C", "7C"], ["8D", "8H", "8S"],
                 ["4H", "5H", "6H"], ["9S", "10S", "JS"], ["2D", "3D", "4D", "5D", "6D"]]
        self.assertGreater(sum(map(len, table)), rearranger.FULL_CARDS)
        hand = ["AC", "9H"]
        action = rearranger_action(table, hand)
        self.assertIsNone(play_error(table, hand, action["play"], 1))
        melds = [sorted(meld) for meld in action["play"]]
        self.assertIn(["AC", "JC", "KC", "QC"], melds)
        for meld in table[3:]:  # the melds away from the clubs stay as they were
            self.assertIn(sorted(meld), melds)

    def test_a_hand_joker_on_a_big_table(self):
        table = [["2S", "3S", "4S", "5S"], ["5C", "6C", "7C"], ["8D", "8H", "8S"],
                 ["4H", "5H", "6H"], ["9S", "10S", "JS"], ["2D", "3D", "4D", "5D", "6D"],
                 ["KH", "KD", "KC"], ["QH", "QD", "QC"], ["5H", "JK", "7H"]]
        self.assertGreater(sum(map(len, table)), rearranger.FULL_CARDS)
        for hand, shed in [(["JK", "9D"], 25), (["JK", "2C", "2H"], 29), (["7D", "7S", "JK"], 39)]:
            action = rearranger_action(table, hand)
            self.assertIsNone(play_error(table, hand, action["play"], 1), hand)
            new = collections.Counter(c for meld in action["play"] for c in meld)
            old = collections.Counter(c for meld in table for c in meld)
            self.assertEqual(sum(points(c) for c in (new - old).elements()), shed, hand)

    def test_the_time_budget_holds_on_a_heavy_position(self):
        rng = random.Random(4)
        deck = DECK * 2 + ["JK"] * 4
        rng.shuffle(deck)
        hand = sorted(deck[:40])  # a long hand with jokers: the slowest kind of search
        started = time.process_time()
        rearranger.search([], hand, 2, time.monotonic() + 60)
        uncut_ms = 1000 * (time.process_time() - started)  # about 500 ms
        for time_left_ms in (30, 300):
            # The processor time the decision takes (the clock's time may be longer on a busy
            # machine, but the bot's deadline is by the clock: it takes less processor time).
            started = time.process_time()
            action = rearranger_action([], hand, 2, time_left_ms)
            elapsed_ms = 1000 * (time.process_time() - started)
            self.assertLess(elapsed_ms, min(uncut_ms / 2, time_left_ms / 3 + 50))
            self.assertIsNone(play_error([], hand, action["play"], 2))

    def test_the_guides_nine_of_spades_with_two_queens(self):
        table = [["10H", "10D", "10S"], ["JH", "JD", "JS"], ["QH", "QD", "QC"]]
        hand = ["9S", "QD", "QS", "5C"]
        action = rearranger_action(table, hand)
        self.assertIsNone(play_error(table, hand, action["play"], 1))
        new = collections.Counter(c for meld in action["play"] for c in meld)
        old = collections.Counter(c for meld in table for c in meld)
        self.assertEqual(sorted((new - old).elements()), ["9S", "QD", "QS"])
        # Without the queens the nine alone leaves the queen of clubs over: it draws.
        self.assertEqual(rearranger_action(table, ["9S", "5C"]), {"draw": True})

    def test_attaches_to_a_run_and_a_set(self):
        table = [["4S", "5S", "6S"], ["9H", "9D", "9C"]]
        hand = ["3S", "9S", "KD"]
        action = rearranger_action(table, hand)
        self.assertIsNone(play_error(table, hand, action["play"], 1))
        self.assertEqual(sum(len(m) for m in action["play"]), 8)

    def test_takes_a_card_from_a_set_of_four_for_a_run(self):
        # 6D leaves the set of four sixes for 4D 5D 6D; the set of three stays valid.
        table = [["6C", "6D", "6H", "6S"]]
        hand = ["4D", "5D"]
        action = rearranger_action(table, hand)
        self.assertIsNone(play_error(table, hand, action["play"], 1))

    def test_jokers_on_the_table_and_in_hand(self):
        table = [["5H", "6H", "JK"]]
        for hand, max_jokers, shed in [(["7H", "JK"], 1, 7), (["7H", "JK"], 2, 32),
                                       (["JK", "KS"], 1, 0), (["2C", "2D", "JK"], 1, 29)]:
            action = rearranger_action(table, hand, max_jokers)
            if shed == 0:
                self.assertEqual(action, {"draw": True})
                continue
            self.assertIsNone(play_error(table, hand, action["play"], max_jokers))
            new = collections.Counter(c for meld in action["play"] for c in meld)
            old = collections.Counter(c for meld in table for c in meld)
            self.assertEqual(sum(points(c) for c in (new - old).elements()), shed, hand)

    def test_the_ace_high_and_low_from_two_copies(self):
        hand = ["AS", "AS", "2S", "3S", "QS", "KS", "4D"]
        action = rearranger_action([], hand)
        self.assertIsNone(play_error([], hand, action["play"], 1))
        self.assertEqual(sum(len(m) for m in action["play"]), 6)

    def test_a_full_suit_and_its_second_ace(self):
        table = [[r + "H" for r in RANKS]]
        hand = ["AH", "5C"]
        action = rearranger_action(table, hand)
        self.assertIsNone(play_error(table, hand, action["play"], 1))

    def test_sheds_the_most_points_on_small_random_positions(self):
        rng = random.Random(5)
        checked = 0
        while checked < 150:
            jokers = checked % 3 == 2
            table, hand = random_position(rng, jokers, 1, melds=rng.randrange(0, 4),
                                          hand_size=rng.randrange(1, 7))
            if sum(map(len, table)) > 10:
                continue
            checked += 1
            table_cards = [c for meld in table for c in meld]
            best = best_shed(table_cards, hand, 1)
            found = rearranger.search(table_cards, hand, 1, time.monotonic() + 10)
            self.assertEqual(found[0] if found else 0, best, (table, hand))
            action = rearranger_action(table, hand)
            if best:
                self.assertIsNone(play_error(table, hand, action["play"], 1), (table, hand))
            else:
                self.assertEqual(action, {"draw": True})

    def test_every_play_is_valid_in_random_positions(self):
        rng = random.Random(3)
        plays = 0
        for i in range(600):
            jokers = i % 2 == 1
            max_jokers = rng.choice([1, 1, 2])
            table, hand = random_position(rng, jokers, max_jokers)
            action = rearranger_action(table, hand, max_jokers)
            if "play" in action:
                plays += 1
                self.assertIsNone(play_error(table, hand, action["play"], max_jokers),
                                  (table, hand, action))
            else:
                self.assertEqual(action, {"draw": True})
        self.assertGreater(plays, 200)

    def test_a_tiny_time_limit_still_gives_a_valid_answer(self):
        rng = random.Random(9)
        for _ in range(50):
            table, hand = random_position(rng, melds=7, hand_size=15)
            for time_left_ms in (0, 1, 5):
                action = rearranger_action(table, hand, 1, time_left_ms)
                if "play" in action:
                    self.assertIsNone(play_error(table, hand, action["play"], 1))
                else:
                    self.assertEqual(action, {"draw": True})


# ----- whole games with a small referee ------------------------------------------------------


class ProcessBot:
    """A starter as a process (its command), driven through the protocol."""

    def __init__(self, command, seed, max_jokers):
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True)
        self.write({"type": "hello", "protocol": 1, "game": "machiavelli", "options": {},
                    "limits": {"startup_ms": 10000, "decision_ms": 1000}})
        assert json.loads(self.process.stdout.readline())["type"] == "hello"
        options = {"cards": 13, "hands": 1, "jokers": True, "jokers_per_meld": max_jokers}
        self.write({"type": "match_start", "match_id": "m", "seat": 0, "players": ["a", "b"],
                    "seed": seed, "options": options})
        self.requests = 0

    def write(self, message):
        self.process.stdin.write(json.dumps(message) + "\n")
        self.process.stdin.flush()

    def __call__(self, view, max_jokers):
        self.requests += 1
        self.write({"type": "request", "id": self.requests, "phase": "turn", "view": view,
                    "time_left_ms": 1000})
        reply = json.loads(self.process.stdout.readline())
        assert reply["type"] == "action" and reply["id"] == self.requests, reply
        return reply["action"]

    def close(self):
        self.write({"type": "goodbye"})
        self.process.stdin.close()
        self.process.wait(timeout=5)
        self.process.stdout.close()


def python_starter(seed):
    rng = random.Random(seed)
    return lambda view, max_jokers: starter.choose(rng, {"view": view}, max_jokers)


def python_rearranger(times):
    bot = rearranger.Rearranger()

    def decide(view, max_jokers):
        bot.max_jokers = max_jokers
        started, processor = time.monotonic(), time.process_time()
        action = bot.decide({"view": view, "time_left_ms": 1000}, started)
        times.append(time.process_time() - processor)  # not the clock: the machine may be busy
        return action

    return decide


def play_hand(test, bots, rng, jokers=False, max_jokers=1, cards=13):
    """Plays one hand as the design says (draw, play; no skips) and checks every play.
    Returns the points left in each hand."""
    deck = DECK * 2 + (["JK"] * 4 if jokers else [])
    rng.shuffle(deck)
    hands = [sorted(deck[i * cards:(i + 1) * cards]) for i in range(len(bots))]
    stock = deck[len(bots) * cards:]
    table = []
    seat = rng.randrange(len(bots))
    quiet = 0  # turns in a row without a play since the stock ran out
    while quiet < len(bots):
        v = view(table, hands[seat], len(bots))
        v["you"], v["stock"] = seat, len(stock)
        v["hand_sizes"] = [len(h) for h in hands]
        action = bots[seat](v, max_jokers)
        if "play" in action:
            error = play_error(table, hands[seat], action["play"], max_jokers)
            test.assertIsNone(error, (table, hands[seat], action))
            added = (collections.Counter(c for m in action["play"] for c in m)
                     - collections.Counter(c for m in table for c in m))
            hands[seat] = sorted((collections.Counter(hands[seat]) - added).elements())
            table = action["play"]
            quiet = 0
            if not hands[seat]:
                break
        else:
            test.assertEqual(action, {"draw": True})
            if stock:
                hands[seat] = sorted(hands[seat] + [stock.pop()])
            else:
                quiet += 1
        seat = (seat + 1) % len(bots)
    return [sum(points(c) for c in hand) for hand in hands]


class GamesTest(unittest.TestCase):
    def test_games_between_the_python_bots(self):
        rng = random.Random(1)
        times = []
        totals = [0, 0]
        for game in range(24):
            jokers = game % 2 == 1
            max_jokers = 1 if game % 4 != 3 else 2
            players = 2 + game % 3
            bots = [python_rearranger(times), python_starter(game)]
            bots += [python_starter(100 + i) for i in range(players - 2)]
            left = play_hand(self, bots, rng, jokers, max_jokers, cards=rng.choice([10, 13]))
            totals[0] += left[0]
            totals[1] += sum(left[1:]) / (players - 1)
        mean_ms = 1000 * sum(times) / len(times)
        print(f"\nrearranger: {len(times)} decisions, mean {mean_ms:.1f} ms, "
              f"max {1000 * max(times):.1f} ms; points left: rearranger {totals[0]}, "
              f"starters {totals[1]:.0f} on average", file=sys.stderr)
        self.assertLess(mean_ms, 100)
        self.assertLess(totals[0], totals[1])

    def games_of(self, command):
        rng = random.Random(2)
        for game in range(6):
            jokers = game % 2 == 1
            max_jokers = 1 if game < 4 else 2
            bot = ProcessBot(command, game + 2 ** 63, max_jokers)
            try:
                play_hand(self, [bot, python_starter(game), python_rearranger([])], rng,
                          jokers, max_jokers)
            finally:
                bot.close()

    @unittest.skipUnless(shutil.which("node"), "node is not installed")
    def test_games_of_the_javascript_starter(self):
        self.games_of(["node", JS_STARTER])

    @unittest.skipUnless(shutil.which("go"), "go is not installed")
    def test_games_of_the_go_starter(self):
        self.games_of(go_starter())


# ----- the protocol, line by line ------------------------------------------------------------

OPTIONS = {"cards": 13, "hands": 1, "jokers": False, "jokers_per_meld": 1}
HELLO = {"type": "hello", "protocol": 1, "game": "machiavelli", "options": OPTIONS,
         "limits": {"startup_ms": 10000, "decision_ms": 1000}}


def match_start(options):
    return {"type": "match_start", "match_id": "match-1", "seat": 0, "players": ["me", "b", "c"],
            "seed": 18446744073709551557, "options": options}


def request(id, table, hand, time_left_ms=1000):
    return {"type": "request", "id": id, "phase": "turn", "view": view(table, hand),
            "time_left_ms": time_left_ms}


GUIDE_TABLE = [["KC", "KD", "KH"], ["QC", "QD", "QH"], ["JC", "JD", "JH"]]

SESSION = [
    HELLO,
    match_start({}),  # options left out: the bots assume the defaults
    {"type": "event", "event": {"kind": "hand_start", "hand_number": 1, "dealer": 2, "first": 0}},
    {"type": "event", "event": {"kind": "dealt", "cards": ["AC", "2D", "9S"]}},
    {"type": "event", "event": {"kind": "some_new_kind"}},
    request(0, GUIDE_TABLE, ["AC", "2D", "9S"]),
    {"type": "error", "id": 0, "fault": "illegal_action", "message": "a test"},
    {"type": "a_new_type", "x": 1},
    request(1, [], ["2D", "3D", "4D", "9S"]),
    request(2, [], ["2D", "9S"]),
    {"type": "match_end", "match_id": "match-1", "scores": [0, 10, 20], "ranks": [1, 2, 3]},
    match_start(dict(OPTIONS, jokers=True, jokers_per_meld=2)),
    request(0, [["5H", "6H", "JK"]], ["7H", "JK"]),
    {"type": "match_end", "match_id": "match-1", "scores": [0, 10, 20], "ranks": [1, 2, 3]},
    {"type": "goodbye"},
]


BUILT = tempfile.TemporaryDirectory(prefix="machiavelli-go-")  # removed when the tests end


def go_starter():
    """The command of the Go starter, built (once) into a temporary directory."""
    program = os.path.join(BUILT.name, "bot")
    if not os.path.exists(program):
        subprocess.run(["go", "build", "-o", program, GO_STARTER], check=True,
                       cwd=os.path.dirname(GO_STARTER))
    return [program]


def converse(command, messages):
    """Feeds the lines to a bot process; returns its replies, parsed, and its exit code."""
    text = "".join(json.dumps(m) + "\n" for m in messages)
    done = subprocess.run(command, input=text, capture_output=True, text=True, timeout=30)
    return [json.loads(line) for line in done.stdout.splitlines()], done.returncode


class ProtocolTest(unittest.TestCase):
    def check_session(self, command, rearranges):
        replies, code = converse(command, SESSION)
        self.assertEqual(code, 0)
        self.assertEqual(replies[0]["type"], "hello")
        self.assertEqual(replies[0]["protocol"], 1)
        actions = replies[1:]
        self.assertEqual([(a["type"], a["id"]) for a in actions],
                         [("action", 0), ("action", 1), ("action", 2), ("action", 0)])
        requests = [m for m in SESSION if m["type"] == "request"]
        options = [1, 1, 1, 2]
        for message, reply, max_jokers in zip(requests, actions, options):
            v = message["view"]
            action = reply["action"]
            self.assertEqual(len(action), 1, action)
            if "play" in action:
                self.assertIsNone(play_error(v["table"], v["hand"], action["play"], max_jokers))
            else:
                self.assertEqual(action, {"draw": True})
        self.assertEqual(actions[0]["action"] == {"draw": True}, not rearranges)
        self.assertEqual(sorted(map(sorted, actions[1]["action"]["play"])),
                         [["2D", "3D", "4D"]])
        self.assertEqual(actions[2]["action"], {"draw": True})
        if rearranges:  # 7H and the joker: two jokers allowed in a meld in the second match
            self.assertEqual(sum(map(len, actions[3]["action"]["play"])), 5)
        else:  # no meld in the hand alone
            self.assertEqual(actions[3]["action"], {"draw": True})

    def test_the_python_starter(self):
        self.check_session([sys.executable, os.path.join(HERE, "machiavelli_random.py")], False)

    def test_the_rearranger(self):
        self.check_session([sys.executable, os.path.join(HERE, "machiavelli_rearranger.py")], True)

    @unittest.skipUnless(shutil.which("node"), "node is not installed")
    def test_the_javascript_starter(self):
        self.check_session(["node", JS_STARTER], False)

    @unittest.skipUnless(shutil.which("go"), "go is not installed")
    def test_the_go_starter(self):
        self.check_session(go_starter(), False)

    def test_the_bots_exit_at_the_end_of_input_without_goodbye(self):
        for script in ("machiavelli_random.py", "machiavelli_rearranger.py"):
            replies, code = converse([sys.executable, os.path.join(HERE, script)],
                                     [HELLO, match_start(OPTIONS),
                                      request(0, [], ["AC", "2C", "3C"])])
            self.assertEqual(code, 0)
            self.assertEqual(len(replies), 2)


if __name__ == "__main__":
    unittest.main()
