#!/usr/bin/env python3
"""Test bot for Machiavelli: answers every turn with a table the referee must refuse, in turn
(1) the table plus a meld of one card of its hand, (2) the table plus a meld of the first card
(clubs first, ace to king) that is neither in its hand nor on the table, twice (or, should every
card be somewhere, (3)), (3) the table plus a meld with a string that is not a card. It copies every line
it receives to standard error, so that a test can check the exact refusal it was told."""
import json
import sys

from botlib import action, record_pid, send

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SUITS = ["C", "D", "H", "S"]



def absent(hand, table):
    """Every card, in card order, that is neither in `hand` nor on `table`."""
    seen = set(hand) | {c for meld in table for c in meld}
    return [r + s for s in SUITS for r in RANKS if r + s not in seen]


record_pid()
turn = 0
for line in sys.stdin:
    sys.stderr.write(line)
    message = json.loads(line)
    kind = message.get("type")
    if kind == "hello":
        send({"type": "hello", "name": "invalid", "protocol": 1})
    elif kind == "request":
        view = message["view"]
        table = view["table"]
        hand = view["hand"]
        if turn % 3 == 0:
            new = table + [[hand[0]]]
        elif turn % 3 == 1 and absent(hand, table):
            card = absent(hand, table)[0]
            new = table + [[card, card, hand[0]]]
        else:
            new = table + [[hand[0], "1X", hand[-1]]]
        send(action(message, {"play": new}))
        turn += 1
    elif kind == "goodbye":
        break
