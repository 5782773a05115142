#!/usr/bin/env python3
"""A Machiavelli bot that rearranges the whole table (Python 3.11, standard library only).

Run it with: referee match --game machiavelli --bot a=sample-bots/python/machiavelli_rearranger.py ...

Every turn it looks for the new table that sheds the most points from its hand: a partition of
*all* the table's cards plus some of its own cards into valid melds. It plays that table if it
sheds anything, else it draws. This finds attachments (a card added to a run or a set), hand
melds, and rearrangements such as the guide's: with the sets K♥ K♦ K♣, Q♥ Q♦ Q♣, J♥ J♦ J♣ on
the table and A♣ in hand, it plays the runs J-Q-K of hearts and of diamonds and J-Q-K-A of clubs.

The search is a dynamic programme over the ranks, like a person sweeping the cards from the
aces up to the kings (and the aces again, for runs that end Q-K-A). At each rank and suit it
decides how many of the hand's copies to use, and where each card at that rank goes: it
extends one of the (at most two) runs of that suit in progress, starts a new run, or joins the
sets of that rank. The state after a rank is what can still matter later: for each suit the
runs in progress (their length up to 3, their jokers, whether they hold a natural card), the
aces kept for the high end, and the jokers used so far; of each state it keeps the best points
shed. Every table card must be used, so states that leave one out are never made. Jokers stand
for a card of a run or fill a set, at most `jokers_per_meld` in a meld.

On a table of up to FULL_CARDS cards the search runs over the whole table and is exact for
the tables it can express (at most two runs of a suit side by side). A bigger table is searched
a part at a time (see `improve`): the melds near each hand card, the rest staying as they are.
A time budget (BUDGET_MS, and never more than a third of the request's time_left_ms) and a cap
on the states per step bound every decision: most take a few milliseconds. Whatever it plays is
checked first against the rules by `check_table`: a table that failed would be a bug, and the
bot would lay the melds of its own hand, or draw, instead.

Deterministic, no randomness at all (unless the time budget cuts a search short, which depends
on the machine's speed). Logs go to stderr; stdout carries protocol lines only.
"""
import functools
import json
import sys
import time

NAME = "python-rearranger"
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]  # ranks 1 to 13
SUITS = ["C", "D", "H", "S"]
JOKER = "JK"
JOKER_POINTS = 25
BUDGET_MS = 150  # the most one decision may search, whatever the time limit
MAX_STATES = 20000  # the most states kept after one step of the search (the best by points)


def log(*parts):
    print(f"{NAME}:", *parts, file=sys.stderr, flush=True)


def send(message):
    sys.stdout.write(json.dumps(message, separators=(",", ":")) + "\n")
    sys.stdout.flush()


# ----- cards and melds -----------------------------------------------------------------------


def parse(card):
    """(rank 1..13, suit index 0..3) of a natural card such as "10S"; None for the joker."""
    if card == JOKER:
        return None
    return RANKS.index(card[:-1]) + 1, SUITS.index(card[-1])


def name(rank, suit):
    """The string of the card of rank 1..13 (or 14, the ace at the top of a run) and suit."""
    return RANKS[(rank - 1) % 13] + SUITS[suit]


def points(card):
    """What the card costs when it is left in hand: 2-10 face value, J/Q/K 10, A 11, JK 25."""
    if card == JOKER:
        return JOKER_POINTS
    rank = parse(card)[0]
    return 11 if rank == 1 else min(rank, 10)


def is_meld(cards, max_jokers):
    """Whether `cards` is a valid set (3 or 4 cards of one rank, all suits different) or run
    (3 to 13 cards of one suit in consecutive ranks, ace low or high, never both), with at
    most `max_jokers` jokers standing for any card, and at least one card not a joker."""
    naturals = [parse(c) for c in cards if c != JOKER]
    jokers = len(cards) - len(naturals)
    if len(cards) < 3 or not naturals or jokers > max_jokers:
        return False
    ranks = {r for r, _ in naturals}
    suits = {s for _, s in naturals}
    if len(cards) <= 4 and len(ranks) == 1 and len(suits) == len(naturals):
        return True
    if len(suits) != 1 or len(cards) > 13:
        return False
    for ace in (1, 14):
        values = {ace if r == 1 else r for r, _ in naturals}
        if len(values) == len(naturals) and max(values) - min(values) < len(cards):
            return True
    return False


def check_table(old_table, hand, new_table, max_jokers):
    """None if `new_table` is a valid play, else why not: every meld valid, every card of the
    old table in it, the rest from the hand (copies counted), at least one card from the hand."""
    count = {}
    for meld in new_table:
        for card in meld:
            count[card] = count.get(card, 0) + 1
    for card in (c for meld in old_table for c in meld):
        count[card] = count.get(card, 0) - 1
        if count[card] < 0:
            return f"{card} is missing"
    added = 0
    for card, n in count.items():
        if n > hand.count(card):
            return f"{card} is not in the hand"
        added += n
    if added == 0:
        return "no card from the hand"
    for meld in new_table:
        if not is_meld(meld, max_jokers):
            return f"{meld} is not a meld"
    return None


# ----- the search ----------------------------------------------------------------------------
#
# Jokers: the search places a joker only where a meld needs one, inside a run (a natural card
# of the run after it) or to make a run or a set three cards long; a joker that merely lengthens
# a meld is put on afterwards, by `add_jokers`, into any meld that takes it. So the search does
# not try every meld for every joker. A run in progress (a "slot") is coded as one int: 0 for
# none, else pending << 6 | length (1, 2, or 3 for three and more) << 4 | jokers << 1 | has a
# natural card, where "pending" marks a joker after the third card that still awaits a natural
# card. Each suit has two slots, kept sorted.


def slot(length, jokers, natural, pending):
    return pending << 6 | min(length, 3) << 4 | jokers << 1 | natural


def closable(code):
    """Whether the run in progress may end here: three cards or more, one of them natural, no
    joker awaiting a natural card."""
    return code >> 4 == 3 and code & 1


def grow(code, joker):
    """The slot after one more card (a joker or a natural card) at the next rank."""
    length, jokers, natural = code >> 4 & 3, code >> 1 & 7, code & 1
    if joker:
        return slot(length + 1, jokers + 1, natural, int(length == 3))
    return slot(length + 1, jokers, 1, 0)


@functools.lru_cache(maxsize=None)
def slot_moves(code, hints, max_jokers):
    """What one slot may do at a position: (move, natural cards used, jokers used, new code).
    Moves: "" nothing, "end" (the run ended at the rank before), "nat"/"jk" (the run, or a new
    one if there was none, takes a natural card or a joker), "end+nat"/"end+jk" (the run ends
    and a new one starts: only for runs with a joker, whose limit is per meld; else the longer
    run does as well). `hints` (see `search`) rule out moves that could lead nowhere."""
    start_nat, start_jk, natural_next, _ = hints
    length, jokers = code >> 4 & 3, code >> 1 & 7
    moves = []
    if code == 0:
        moves.append(("", 0, 0, 0))
        if start_nat:
            moves.append(("nat", 1, 0, grow(0, False)))
        if start_jk:
            moves.append(("jk", 0, 1, grow(0, True)))
        return moves
    moves.append(("nat", 1, 0, grow(code, False)))
    # A joker in a run: before a natural card, or to make the run three cards long.
    if jokers < max_jokers and (natural_next or length < 3 <= length + max_jokers - jokers):
        moves.append(("jk", 0, 1, grow(code, True)))
    if closable(code):
        moves.append(("end", 0, 0, 0))
        if jokers:
            if start_nat:
                moves.append(("end+nat", 1, 0, grow(0, False)))
            if start_jk:
                moves.append(("end+jk", 0, 1, grow(0, True)))
    return moves


@functools.lru_cache(maxsize=None)
def suit_moves(pair, position, table_n, hand_n, hints, max_jokers):
    """Every way to play one suit at one position: (new pair, hand cards used, naturals left
    for the sets of this rank, jokers used, table copies kept for the ace-high end, hand
    copies kept, the move of each slot). At position 1 (the aces) copies may be kept back for
    the high end (Q-K-A); at 14 the kept ones come back and must all go to runs."""
    results = []
    keep = position == 1 and hints[3]
    for table_kept in range(table_n + 1) if keep else (0,):
        for hand_kept in range(hand_n + 1) if keep else (0,):
            # (At 14, a hand ace kept back and not used might as well not have been kept.)
            for hand_used in (hand_n,) if position == 14 else range(hand_n - hand_kept + 1):
                naturals = table_n - table_kept + hand_used
                for move_a, nat_a, jk_a, code_a in slot_moves(pair[0], hints, max_jokers):
                    for move_b, nat_b, jk_b, code_b in slot_moves(pair[1], hints, max_jokers):
                        left = naturals - nat_a - nat_b
                        if left < 0 or position == 14 and left:
                            continue
                        new_pair = (code_a, code_b) if code_a <= code_b else (code_b, code_a)
                        results.append((new_pair, hand_used, left, jk_a + jk_b,
                                        table_kept, hand_kept, (move_a, move_b)))
    return results


@functools.lru_cache(maxsize=None)
def set_groups(left, jokers, max_jokers):
    """A way to make sets of one rank from `left` (how many natural cards of each suit) and
    `jokers` jokers, each joker in a set of three: a tuple of (suits, jokers) per set, or None
    if there is none. Only the counts matter, not which suit has them."""
    if not any(left):
        return () if jokers == 0 else None
    suits = [s for s, n in enumerate(left) if n]
    first, others = suits[0], suits[1:]
    for mask in range(1 << len(others)):  # the suits that join the first one in its set
        chosen = [first] + [s for i, s in enumerate(others) if mask >> i & 1]
        for j in range(min(jokers, max_jokers) + 1):
            if len(chosen) + j in ((3, 4) if j == 0 else (3,)):
                rest = tuple(n - (s in chosen) for s, n in enumerate(left))
                groups = set_groups(rest, jokers - j, max_jokers)
                if groups is not None:
                    return ((tuple(chosen), j),) + groups
    return None


@functools.lru_cache(maxsize=None)
def sets_viable(ones, twos, caps, jokers, max_jokers):
    """Whether the naturals left for the sets of a rank so far (`ones` suits with one card,
    `twos` with two) can still make sets, if the suits still to come leave up to `caps` cards
    each, with up to `jokers` jokers."""
    if caps:
        return any(sets_viable(ones + (k == 1), twos + (k == 2), caps[1:], jokers, max_jokers)
                   for k in range(caps[0] + 1))
    return any(set_groups((1,) * ones + (2,) * twos, j, max_jokers) is not None
               for j in range(jokers + 1))


class Timeout(Exception):
    pass


def search(table, hand, max_jokers, deadline):
    """The best new table: (points shed, list of melds), or None if no table sheds anything.
    Raises Timeout after `deadline` (time.monotonic())."""
    counts = [[[0, 0] for _ in range(4)] for _ in range(14)]  # [rank][suit] = [table, hand]
    jokers = [0, 0]  # table, hand
    for where, cards in enumerate((table, hand)):
        for card in cards:
            natural = parse(card)
            if natural is None:
                jokers[where] += 1
            else:
                counts[natural[0]][natural[1]][where] += 1
    for rank in range(1, 14):  # the copies of a card in hand that the table has room for
        for s in range(4):
            counts[rank][s][1] = min(counts[rank][s][1], 2 - counts[rank][s][0])
    all_jokers = jokers[0] + jokers[1]
    max_jokers = min(max_jokers, all_jokers)
    # What could lead somewhere, by position and suit: (a run may start with a natural card,
    # a run may start with a joker, a natural card follows, the aces may be kept for the top).
    gap = [[position > 14 or counts[(position - 1) % 13 + 1][s] == [0, 0] for s in range(4)]
           for position in range(17)]
    hints = {}
    for position in range(1, 15):
        for s in range(4):
            # The two cards after a new run's first: naturals there, or jokers in their place.
            gaps = gap[position + 1][s] + gap[position + 2][s]
            hints[position, s] = (
                position <= 12 and gaps <= max_jokers,
                # A joker before a run's natural cards could go after them instead, unless the
                # run ends with the ace at the top: (a joker standing for the queen,) K, A.
                position == 12 and gaps < min(2, max_jokers),
                not gap[position + 1][s],
                gap[12][s] + gap[13][s] <= max_jokers)

    # A state: (slots per suit, aces kept per suit, jokers used, the naturals left for the
    # sets of this rank: how many suits have one card left, how many two). Each step maps
    # state -> (points, previous state, move).
    empty = ((0, 0),) * 4
    states = {(empty, ((0, 0),) * 4, 0, (0, 0)): (0, None, None)}
    steps = []
    for position in range(1, 15):
        rank = 1 if position == 14 else position
        value = 11 if rank == 1 else min(rank, 10)
        for s in range(4):
            table_n, hand_n = counts[rank][s]
            caps = tuple(min(2, sum(counts[rank][other])) for other in range(s + 1, 4))
            following = {}
            for n, (state, (score, _, _)) in enumerate(states.items()):
                if n % 64 == 0 and time.monotonic() > deadline:
                    raise Timeout
                slots, kept, used, left = state
                if position == 14:  # the aces kept back at position 1
                    table_n, hand_n = kept[s]
                for (pair, hand_used, nat_left, jk, table_kept, hand_kept,
                     moves) in suit_moves(slots[s], position, table_n, hand_n,
                                          hints[position, s], max_jokers):
                    if used + jk > all_jokers:
                        continue
                    new_kept = kept
                    if position in (1, 14):
                        new_kept = kept[:s] + ((table_kept, hand_kept),) + kept[s + 1:]
                    new_left = left
                    if nat_left:  # one more suit with one card (or two) left for the sets
                        new_left = (left[0] + (nat_left == 1), left[1] + (nat_left == 2))
                        if not sets_viable(*new_left, caps, min(4, all_jokers - used - jk),
                                           max_jokers):
                            continue
                    key = (slots[:s] + (pair,) + slots[s + 1:], new_kept, used + jk, new_left)
                    new_score = score + hand_used * value
                    if key not in following or following[key][0] < new_score:
                        following[key] = (new_score, state, (s, nat_left, moves))
            states = prune(following)
            steps.append(states)
        following = {}  # the sets of this rank, with the jokers they take
        for state, (score, _, _) in states.items():
            slots, kept, used, left = state
            for j in range(all_jokers - used + 1):
                if set_groups((1,) * left[0] + (2,) * left[1], j, max_jokers) is None:
                    continue
                key = (slots, kept, used + j, (0, 0))
                if key not in following or following[key][0] < score:
                    following[key] = (score, state, ("sets", j))
        states = prune(following)
        steps.append(states)

    # The states where every run is complete, the most promising first: the points of the
    # hand cards placed, plus those of the hand's jokers not placed yet, if they all fit.
    finals = []
    for state, (score, _, _) in states.items():
        slots, _, used, _ = state
        if all(code == 0 or closable(code) for pair in slots for code in pair):
            score += max(0, used - jokers[0]) * JOKER_POINTS
            finals.append((score + min(jokers[1], all_jokers - used) * JOKER_POINTS,
                           score, used, state))
    finals.sort(key=lambda final: final[:2], reverse=True)
    best = None
    for promise, score, used, state in finals:
        if best is not None and (best[0] >= promise or time.monotonic() > deadline):
            break
        melds = rebuild(steps, state, max_jokers)
        table_left = max(0, jokers[0] - used)
        hand_left = all_jokers - used - table_left
        placed = add_jokers(melds, table_left + hand_left, max_jokers)
        if placed < table_left:
            continue  # a joker of the table found no place
        score += (placed - table_left) * JOKER_POINTS
        if score > 0 and (best is None or score > best[0]):
            best = (score, melds)
    return best


def prune(states):
    if len(states) <= MAX_STATES:
        return states
    kept = sorted(states.items(), key=lambda item: item[1][0], reverse=True)[:MAX_STATES]
    return dict(kept)


def rebuild(steps, state, max_jokers):
    """The melds of the table that led to `state`, replaying the moves from the first step."""
    moves = []
    for step in reversed(steps):
        _, previous, move = step[state]
        moves.append(move)
        state = previous
    moves.reverse()
    melds = []
    runs = [[[], []] for _ in range(4)]  # the runs in progress, in the order of their slots
    codes = [[0, 0] for _ in range(4)]
    position, left = 1, [0, 0, 0, 0]
    for move in moves:
        if move[0] == "sets":  # the last step of a position
            for suits, j in set_groups(tuple(left), move[1], max_jokers):
                melds.append([name(position, s) for s in suits] + [JOKER] * j)
            position, left = position + 1, [0, 0, 0, 0]
            continue
        s, left[s], slot_moves_ = move
        card = name(position, s)
        new_codes = []
        for i, what in enumerate(slot_moves_):
            run, code = runs[s][i], codes[s][i]
            if what.startswith("end"):
                melds.append(run)
                run, code = [], 0
            if what.endswith("nat"):
                run, code = run + [card], grow(code, False)
            elif what.endswith("jk"):
                run, code = run + [JOKER], grow(code, True)
            runs[s][i] = run
            new_codes.append(code)
        order = sorted(range(2), key=lambda i: new_codes[i])
        runs[s] = [runs[s][i] for i in order]
        codes[s] = [new_codes[i] for i in order]
    melds.extend(run for pairs in runs for run in pairs if run)
    return [piece for meld in melds for piece in split(meld)]


def split(run):
    """A run of 14 (A to K and the ace again) is two runs: A-2-3 and 4 to A."""
    return [run[:3], run[3:]] if len(run) > 13 else [run]


def add_jokers(melds, count, max_jokers):
    """Puts up to `count` jokers into melds that stay valid with one more; returns how many."""
    placed = 0
    for meld in melds:
        while placed < count and is_meld(meld + [JOKER], max_jokers):
            meld.append(JOKER)
            placed += 1
    return placed


# ----- big tables: a part at a time ---------------------------------------------------------
#
# On a big table the search over every card would take too long, and most of the table has
# nothing to do with a given hand card anyway. So the search runs on a *part* of the table: the
# melds with a card near a card of the hand (same rank, or same suit and at most two ranks
# apart), and the melds near those, up to PART_CARDS cards; the other melds stay as they are.
# Of the parts' results, those that share no meld and no hand card are all played, the best
# first; then the search starts again on the new table, while the time lasts. Jokers multiply
# the states of the search, so there the melds that hold one stay as they are (hand cards may
# still be added to them), and the hand's jokers go, at the end, into any meld that takes them
# or else into a meld with two hand cards. (A small table is searched whole, jokers included.)

FULL_CARDS = 24  # a table this small is searched whole first (exactly)
PART_CARDS = 30  # the most table cards in a part


def neighbourhood(cards):
    """What the natural cards among `cards` are near: a card is near one of them if it has
    its rank, or its suit and a rank at most two away (the ace counting as 1 and as 14)."""
    ranks, spots = set(), set()
    for card in cards:
        if card != JOKER:
            rank, suit = parse(card)
            ranks.add(rank)
            for value in (1, 14) if rank == 1 else (rank,):
                spots.update((suit, value + d) for d in range(-2, 3))
    return ranks, spots


def is_near(card, around):
    """Whether the natural card `card` is near the cards of `around` (a neighbourhood)."""
    ranks, spots = around
    rank, suit = parse(card)
    return rank in ranks or (suit, rank) in spots or rank == 1 and (suit, 14) in spots


def part(seed, melds):
    """The indexes of the melds of the part of the table around the hand card `seed`: those
    with a card near it, then those near them, the smallest first, none with a joker."""
    chosen, size = [], 0
    around = neighbourhood([seed])
    for _ in range(2):
        nearby = [i for i, meld in enumerate(melds) if i not in chosen and JOKER not in meld
                  and any(is_near(c, around) for c in meld)]
        for i in sorted(nearby, key=lambda i: len(melds[i])):
            if size + len(melds[i]) <= PART_CARDS:
                chosen.append(i)
                size += len(melds[i])
        around = neighbourhood(c for i in chosen for c in melds[i])
    return sorted(chosen)


def joker_pairs(cards, max_jokers):
    """(points, a, b) for each two cards a and b that make a meld with a joker, dearest first."""
    cards = sorted(set(cards))
    return sorted(((points(a) + points(b), a, b) for i, a in enumerate(cards)
                   for b in cards[i + 1:] if is_meld([a, b, JOKER], max_jokers)), reverse=True)


def improve(table, hand, max_jokers, deadline):
    """The new table found before `deadline` that sheds the most points: (points, table), or
    None if none sheds a card."""
    table = [list(meld) for meld in table]
    if sum(map(len, table)) <= FULL_CARDS:
        # Small enough to search whole, exactly, within half the time; else part by part.
        try:
            return search([c for meld in table for c in meld], hand, max_jokers,
                          min(deadline, (time.monotonic() + deadline) / 2))
        except Timeout:
            pass
    hand = list(hand)
    naturals = [c for c in hand if c != JOKER]
    shed = 0
    while time.monotonic() < deadline:
        parts = [[]]  # melds of the hand alone first, then the parts around each hand card
        for seed in sorted(set(naturals), key=points, reverse=True):
            indexes = part(seed, table)
            if indexes not in parts:
                parts.append(indexes)
        found = []
        for k, indexes in enumerate(parts):
            cards = [c for i in indexes for c in table[i]]
            mine = naturals
            if indexes:  # the hand cards near the part, and those near them
                for _ in range(2):
                    around = neighbourhood(cards + mine)
                    mine = [c for c in naturals if is_near(c, around)]
            # Each part may take twice its share of the time left, so that one slow part
            # leaves time for the others.
            now = time.monotonic()
            try:
                result = search(cards, mine, max_jokers,
                                min(deadline, now + 2 * (deadline - now) / (len(parts) - k)))
            except Timeout:
                continue
            if result is not None:
                found.append((result[0], indexes, result[1]))
        if JOKER in hand:  # and the melds of a hand joker with two hand cards
            found += [(value + JOKER_POINTS, [], [[a, b, JOKER]])
                      for value, a, b in joker_pairs(naturals, max_jokers)]
        # Play the best result, and every other that touches neither its melds nor its cards.
        found.sort(key=lambda f: f[0], reverse=True)
        used_melds, left, new_melds = set(), list(hand), []
        for points_shed, indexes, melds in found:
            if used_melds & set(indexes):
                continue
            added = [c for meld in melds for c in meld]
            for c in (c for i in indexes for c in table[i]):
                added.remove(c)
            if any(left.count(c) < added.count(c) for c in added):
                continue
            for c in added:
                left.remove(c)
            used_melds |= set(indexes)
            new_melds += melds
            shed += points_shed
        if not new_melds:
            break
        table = [meld for i, meld in enumerate(table) if i not in used_melds] + new_melds
        hand = left
        naturals = [c for c in hand if c != JOKER]
    for card in sorted(set(naturals), key=points, reverse=True):
        for meld in table:  # hand cards that a meld with a joker takes as they are
            if card in hand and JOKER in meld and is_meld(meld + [card], max_jokers):
                meld.append(card)
                hand.remove(card)
                shed += points(card)
    # The hand's jokers: each in a meld with two hand cards, the dearest pairs first, else
    # into any meld that takes it.
    jokers = hand.count(JOKER)
    for value, a, b in joker_pairs(naturals, max_jokers) if jokers else ():
        if jokers and a in hand and b in hand:
            table.append([a, b, JOKER])
            for card in (a, b, JOKER):
                hand.remove(card)
            shed += value + JOKER_POINTS
            jokers -= 1
    shed += add_jokers(table, jokers, max_jokers) * JOKER_POINTS
    return (shed, table) if shed else None


# ----- the decision --------------------------------------------------------------------------


def hand_melds(hand, max_jokers):
    """Melds made of the hand alone, greedily (the fallback when the search runs out of time):
    the sets of each rank, then the longest runs of each suit, each if its cards are left."""
    candidates = []
    for r in RANKS:
        candidates.append([r + s for s in SUITS if r + s in hand])
    for s in SUITS:
        streak = []
        for r in RANKS + ["A"]:  # the ace again after the king: Q-K-A
            if r + s in hand and len(streak) < 13:
                streak.append(r + s)
            else:
                candidates.append(streak)
                streak = [r + s] if r + s in hand else []
        candidates.append(streak)
    left = list(hand)
    melds = []
    for meld in candidates:
        if all(left.count(c) >= meld.count(c) for c in meld) and is_meld(meld, max_jokers):
            for c in meld:
                left.remove(c)
            melds.append(meld)
    return melds


class Rearranger:
    def __init__(self):
        self.max_jokers = 1  # the option jokers_per_meld, 1 unless set

    def decide(self, request, started):
        view = request["view"]
        table, hand = view["table"], view["hand"]
        time_left = request.get("time_left_ms", 1000)
        budget = min(BUDGET_MS, time_left / 3) / 1000
        candidates = []
        found = improve(table, hand, self.max_jokers, started + budget)
        if found is not None:
            candidates.append(found[1])
        laid = hand_melds(hand, self.max_jokers)  # in case the search was cut short
        if laid:
            candidates.append(table + laid)
        best, best_points = None, 0
        for new_table in candidates:
            why = check_table(table, hand, new_table, self.max_jokers)
            if why is not None:
                log(f"bug: a table that is not a play ({why}): {new_table}")
                continue
            shed = (sum(points(c) for meld in new_table for c in meld)
                    - sum(points(c) for meld in table for c in meld))
            if shed > best_points:
                best, best_points = new_table, shed
        return {"play": best} if best else {"draw": True}


def main():
    bot = Rearranger()
    for line in sys.stdin:  # one message per line; the loop ends when stdin closes (EOF)
        started = time.monotonic()
        if not line.strip():
            continue
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":  # the first message: say who we are and which protocol we speak
            send({"type": "hello", "name": NAME, "protocol": 1})
        elif kind == "match_start":  # a new match: read its options
            bot.max_jokers = message.get("options", {}).get("jokers_per_meld", 1)
        elif kind == "request":  # our turn: answer with an action, echoing the request's id
            try:
                action = bot.decide(message, started)
            except Exception as error:  # never leave the referee without an answer
                log(f"decision failed ({error!r}); drawing")
                action = {"draw": True}
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
